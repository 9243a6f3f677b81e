"""Nothing false shown (issue #15, classes 5 and 6): what the `id-` and `expl-` files of the corpus claim.

`test_hostile.py` runs every corpus file through `tensorlab run` and checks it is contained; the
files about storage identity (`id-*`) and explanations (`expl-*`) also say, in their header, what
must be *true* of what TensorLab shows, and this module checks it, in this process (the same
session the worker runs), for every such file:

- ``# storage: STEP NAME ID``: after step STEP, NAME's storage id is ID;
- ``# storages: STEP COUNT``: the snapshot after STEP lists COUNT storages;
- ``# nbytes: STEP ID N``: storage ID's extent is N bytes;
- ``# cells: STEP ID [...]``: storage ID's cells (complex numbers as [re, im]);
- ``# no-notes: all``: no step reports memory changed behind autograd's back;
- ``# note: STEP NAMES``: step STEP reports it, for exactly NAMES (and no other step of the file does);
- ``# no-explanation: all``: no error or warning gets a plain-words explanation;
- ``# check-finds: KIND``: `tensorlab check` finds KIND (a FindingKind value);
- ``# headers: N``: the transcript has exactly N lines that start like a step header;
- ``# check-one-line: yes``: every finding `check` prints is one line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tensorlab.core.checks.lesson_checks import check_lesson, lesson_warnings
from tensorlab.core.lessons.lesson import load_lesson
from tensorlab.core.lessons.transcript import transcript
from tensorlab.core.protocol.snapshot import to_plain
from tensorlab.core.session.session import Session

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("id-*.toml")) + sorted(HERE.glob("expl-*.toml"))
_KEYS = ("storage", "storages", "nbytes", "cells", "no-notes", "note", "no-explanation", "check-finds", "headers",
         "check-one-line")
_HEADER = re.compile(r"^\[\d+/\d+\] ")


def _claims(path: Path) -> list[tuple[str, str]]:
    claims = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        key, colon, value = line[1:].strip().partition(":")
        if colon and key.strip() in _KEYS:
            claims.append((key.strip(), value.strip()))
    return claims


def _plain(values):
    plain = to_plain(values)
    if isinstance(plain, list):
        return [_plain(v) for v in plain]
    return list(plain) if isinstance(plain, tuple) else plain


def test_there_are_files_for_both_classes():
    names = [p.name for p in FILES]
    assert sum(n.startswith("id-") for n in names) >= 4 and sum(n.startswith("expl-") for n in names) >= 3
    for path in FILES:
        assert _claims(path), f"{path.name} claims nothing this test checks"


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_what_the_file_says_is_shown(name):
    path = HERE / name
    lesson = load_lesson(path)
    session = Session()
    results = [session.execute(step.statement) for step in lesson.steps]
    problems = []
    for key, value in _claims(path):
        if key == "storage":
            step, tensor, storage = value.split()
            info = results[int(step) - 1].snapshot.tensor(tensor)
            if info is None or info.storage != storage:
                problems.append(f"step {step}: {tensor} is on {info and info.storage}, not {storage}")
        elif key == "storages":
            step, count = map(int, value.split())
            if len(results[step - 1].snapshot.storages) != count:
                problems.append(f"step {step}: {len(results[step - 1].snapshot.storages)} storages, not {count}")
        elif key == "nbytes":
            step, storage, size = value.split()
            found = results[int(step) - 1].snapshot.storage(storage)
            if found is None or found.nbytes != int(size):
                problems.append(f"step {step}: {storage} has {found and found.nbytes} bytes, not {size}")
        elif key == "cells":
            step, storage, cells = value.split(" ", 2)
            found = results[int(step) - 1].snapshot.storage(storage)
            if found is None or _plain(found.cells) != ast.literal_eval(cells):
                problems.append(f"step {step}: {storage} cells {found and _plain(found.cells)}, not {cells}")
        elif key == "no-notes":
            problems += [f"step {r.index + 1}: a note {r.notes}" for r in results if r.notes]
        elif key == "note":
            step, *names = value.split()
            said = [dict(n.params).get("names") for n in results[int(step) - 1].notes]
            if said != [", ".join(f"`{n}`" for n in names)]:
                problems.append(f"step {step}: notes {said}, not {names}")
        elif key == "no-explanation":
            for r in results:
                raised = ([r.error] if r.error is not None else []) + list(r.warnings)
                problems += [f"step {r.index + 1}: explained as {e.explanation.key}" for e in raised
                             if e.explanation is not None]
        elif key == "check-finds":
            kinds = [f.kind.value for f in check_lesson(lesson).findings]
            if value not in kinds:
                problems.append(f"check found {kinds}, not {value}")
        elif key == "headers":
            for language in ("en", "ko"):
                text = transcript(lesson, "cpu", results, language=language)
                headers = [line for line in text.splitlines() if _HEADER.match(line)]
                if len(headers) != int(value):
                    problems.append(f"{language}: {len(headers)} step headers: {headers}")
        elif key == "check-one-line":
            problems += [f"a finding over lines: {w!r}" for w in lesson_warnings(lesson) if len(w.splitlines()) != 1]
    assert not problems, f"{name}:\n" + "\n".join(problems)
