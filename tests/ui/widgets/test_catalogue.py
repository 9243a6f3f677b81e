"""The window's catalogue is the sources': `pyside6-lupdate` regenerates the `.ts` with no difference.

Every UI text is a string literal in ``tr("...")`` or ``QT_TR_NOOP("...")`` where it is written
(tensorlab/ui/widgets/i18n.py), so lupdate finds all of them; these tests fail when the committed
catalogue is not what lupdate makes of the sources (a text added or changed without regenerating
it), when a text has no finished Korean translation, when the `.qm` is not compiled from the `.ts`,
and when a call passes lupdate something it cannot read (a variable, an f-string, a method ``tr``).

Regenerate and compile (the README's command)::

    pyside6-lupdate -extensions py tensorlab/ui tensorlab/gui -ts tensorlab/resources/i18n/tensorlab_ko.ts \
        -locations none -no-obsolete -sort-messages
    pyside6-lrelease tensorlab/resources/i18n/tensorlab_ko.ts -qm tensorlab/resources/i18n/tensorlab_ko.qm
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tensorlab.ui.widgets import i18n

ROOT = Path(__file__).resolve().parents[3]
I18N = ROOT / "tensorlab" / "resources" / "i18n"
TS, QM = I18N / "tensorlab_ko.ts", I18N / "tensorlab_ko.qm"
SOURCES = ["tensorlab/ui", "tensorlab/gui"]     # the window's process: every module that shows a Qt text
LUPDATE_OPTIONS = ["-locations", "none", "-no-obsolete", "-sort-messages"]

# The markers lupdate reads with the empty context (bare calls, outside or inside a class).
MARKERS = {"tr", "QT_TR_NOOP"}
# lupdate's other forms, which would file a text under another context than the one tr() looks up.
OTHER_CONTEXTS = {"translate", "QT_TRANSLATE_NOOP", "QT_TRANSLATE_NOOP3", "QT_TR_NOOP_UTF8",
                  "QT_TRANSLATE_NOOP_UTF8", "QT_TR_N_NOOP", "QT_TRANSLATE_N_NOOP", "qsTr", "qsTranslate"}
# The one call of translate() with a variable: i18n._translate, behind tr() and tr_marked().
INTERNAL = ("tensorlab/ui/widgets/i18n.py", "_translate")


def _tool(name: str) -> str:
    """``pyside6-<name>`` beside this interpreter (the venv CI makes), else on PATH, else PySide6's own binary."""
    for candidate in (Path(sys.executable).parent / f"pyside6-{name}", shutil.which(f"pyside6-{name}")):
        if candidate and Path(candidate).exists():
            return str(candidate)
    import PySide6

    binary = Path(PySide6.__file__).parent / name
    if binary.exists():
        return str(binary)
    pytest.fail(f"pyside6-{name} is not installed (it comes with PySide6); the catalogue cannot be checked")


def _catalogue(path: Path) -> dict[tuple[str, str], tuple[str, str | None]]:
    """(context, source) -> (translation, its type: None when finished, "unfinished", "vanished", ...)."""
    messages = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None, message.findtext("source")
            messages[(name, message.findtext("source") or "")] = (translation.text or "", translation.get("type"))
    return messages


def test_lupdate_regenerates_the_committed_catalogue(tmp_path):
    regenerated = tmp_path / TS.name
    shutil.copyfile(TS, regenerated)
    run = subprocess.run([_tool("lupdate"), "-extensions", "py", *SOURCES, "-ts", str(regenerated), *LUPDATE_OPTIONS],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    committed, fresh = _catalogue(TS), _catalogue(regenerated)
    new = sorted(source for key, source in fresh if (key, source) not in committed)
    gone = sorted(source for key, source in committed if (key, source) not in fresh)
    assert (new, gone) == ([], []), (
        f"the .ts is not what pyside6-lupdate makes of the sources: new texts {new}, texts no longer used {gone}; "
        "regenerate it (README, Translations), translate what is new, and compile the .qm")
    assert fresh == committed


def test_every_text_has_a_finished_korean_translation():
    catalogue = _catalogue(TS)
    assert {context for context, _ in catalogue} == {i18n.CONTEXT}
    missing = sorted(source for (_, source), (text, kind) in catalogue.items() if not text.strip() or kind)
    assert missing == []
    assert len(catalogue) > 250


def test_the_qm_is_compiled_from_the_ts(tmp_path):
    compiled = tmp_path / QM.name
    run = subprocess.run([_tool("lrelease"), str(TS), "-qm", str(compiled)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    # Compared by what each file translates, not byte for byte: another lrelease may lay the file out anew.
    from PySide6.QtCore import QTranslator

    fresh, committed = QTranslator(), QTranslator()
    assert fresh.load(str(compiled)) and committed.load(str(QM))
    differ = [source for (context, source), (text, _) in _catalogue(TS).items()
              if committed.translate(context, source) != fresh.translate(context, source) or
              committed.translate(context, source) != text]
    assert not differ, f"run pyside6-lrelease on the .ts (README, Translations): {differ[:5]}"


def _name(call: ast.Call) -> tuple[str | None, bool]:
    """The called name, and whether it is a method (``x.tr``) rather than a bare name."""
    if isinstance(call.func, ast.Name):
        return call.func.id, False
    if isinstance(call.func, ast.Attribute):
        return call.func.attr, True
    return None, False


def _literal(node: ast.expr) -> bool:
    # Adjacent literals ("a" "b") are one Constant in the AST, and lupdate joins them too.
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value)


Found = tuple[str, str, ast.Call, ast.AST | None, str]


def _visit(node: ast.AST, where: str, function: str, fstring: ast.AST | None, found: list[Found]) -> None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        function = node.name
    if isinstance(node, ast.JoinedStr):
        fstring = node
    if isinstance(node, ast.Call):
        name, _ = _name(node)
        if name is not None:
            found.append((where, function, node, fstring, name))
    for child in ast.iter_child_nodes(node):
        _visit(child, where, function, fstring, found)


def _calls() -> list[Found]:
    """(file, enclosing function, call, the f-string it sits in or None, called name) for every call."""
    found: list[Found] = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            _visit(ast.parse(path.read_text(encoding="utf-8")), str(path.relative_to(ROOT)), "", None, found)
    return found


def test_every_translated_text_is_a_literal_lupdate_reads():
    wrong = []
    for where, function, call, fstring, name in _calls():
        _, method = _name(call)
        at = f"{where}:{call.lineno}"
        if name in MARKERS:
            if method:
                # self.tr()/i18n.tr() would land under the object's name, a context never looked in.
                wrong.append(f"{at}: call {name}() by its bare name, not as a method")
            elif len(call.args) != 1 or call.keywords or not _literal(call.args[0]):
                wrong.append(f"{at}: {name}() takes one string literal (a marked text: tr_marked())")
            elif fstring is not None:
                wrong.append(f"{at}: {name}() inside an f-string, where lupdate does not look")
        elif name in OTHER_CONTEXTS:
            internal = (where, function) == INTERNAL and name == "translate"
            if not internal:
                wrong.append(f"{at}: {name}() files its text under another context; use tr() or QT_TR_NOOP()")
        elif name == "bind" and method and len(call.args) == 2 and isinstance(call.args[1], ast.Constant):
            wrong.append(f"{at}: bind() of a bare literal; mark it: bind(setter, QT_TR_NOOP(\"...\"))")
    assert wrong == []


def test_lupdate_and_the_sources_agree_on_the_texts():
    # The same texts read two ways: by Python's parser here, by lupdate into the .ts.
    in_sources = {call.args[0].value for _, _, call, _, name in _calls()
                  if name in MARKERS and not _name(call)[1] and call.args and _literal(call.args[0])}
    in_catalogue = {source for _, source in _catalogue(TS)}
    assert (sorted(in_sources - in_catalogue), sorted(in_catalogue - in_sources)) == ([], []), \
        "(texts lupdate did not extract, texts only the catalogue has)"


def test_the_internal_translate_is_the_only_one():
    # The exception test_every_translated_text_is_a_literal_lupdate_reads allows is still there (and only once).
    internal = [call for where, function, call, _, name in _calls() if (where, function) == INTERNAL
                and name == "translate"]
    assert len(internal) == 1
