"""Reading a pasted traceback: its exceptions and warnings, each with its message unwrapped and the learner's line.

What a learner copies comes in many shapes, and this reads them all in one pass over the lines:

- plain Python tracebacks (``File "train.py", line 12, in <module>`` and the source line under it,
  Python 3.11+ caret lines ``~~^^`` skipped), chained ones ("During handling of the above exception
  ..." / "The above exception was the direct cause ..."): each ``Traceback`` starts a new list of frames;
- IPython and Jupyter (``Cell In[3], line 4`` / ``File path:12, in f()`` / ``<ipython-input-3-...> in
  <module>`` and the ``---->`` arrow line of each frame);
- pytest (``E   `` prefixed message lines, ``>`` source lines, ``path:12: in f`` locations);
- ``[rank0]:`` prefixes of distributed runs; warning lines ``path:12: UserWarning: message`` (the source
  line under them is the learner's when the path is theirs);
- a message wrapped over several lines (joined); an exception whose message holds another exception's
  header (DDP, ``torch.compile``): the inner header is an exception of its own, and the last one wins.

Every line is looked at a bounded number of times and no regular expression with nested quantifiers is
used, so a hostile paste (10^5 chained exceptions, one line of a megabyte) costs time linear in its size.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Raised", "Paste", "read_paste", "is_library", "MAX_MESSAGE"]

KEPT_EARLIER = 32       # exceptions kept before the last one (a launcher's wrapper names the real one before it)
MAX_MESSAGE = 20_000   # characters of a message kept: torch's longest forms are a few hundred
_CHECK_EVERY = 2048     # lines between two polls of cancelled() and progress()

_TYPE_ENDINGS = ("Error", "Exception", "Warning")
_BARE_TYPES = frozenset({"KeyboardInterrupt", "SystemExit", "StopIteration", "GeneratorExit"})
_LIBRARY_PARTS = ("site-packages", "dist-packages", "/torch/", "\\torch\\", "<frozen ", "/lib/python3",
                  "\\lib\\python3", "/lib64/python3")


def is_library(path: str) -> bool:
    """True when ``path`` (a frame's file) is a library's or Python's, not the learner's own code."""
    return any(part in path for part in _LIBRARY_PARTS)


@dataclass
class Raised:
    """One exception or warning found in the paste.

    ``type`` is the class name as written (``torch._dynamo.exc.BackendCompilerFailed``), ``short`` its
    last part; ``lines`` the message's lines (joined by :meth:`message`); ``line`` the learner's line.
    """

    kind: str           # "error" | "warning"
    type: str
    lines: list[str] = field(default_factory=list)
    line: str | None = None
    size: int = 0        # characters of the message kept so far

    @property
    def short(self) -> str:
        """The class name without its module."""
        return self.type.rsplit(".", 1)[-1]

    def add(self, text: str) -> None:
        """One more line of the message (kept up to :data:`MAX_MESSAGE` characters)."""
        if self.size < MAX_MESSAGE:
            text = text[:MAX_MESSAGE - self.size]
            self.lines.append(text)
            self.size += len(text) + 1

    def message(self, joiner: str = " ", start: int = 0) -> str:
        """The message unwrapped from its line ``start`` on: its lines stripped and joined with ``joiner``.

        Joined with ``""`` (a terminal's wrap, cut mid-word), the lines are kept as they are, spaces and all.
        """
        parts = self.lines[start:]
        if joiner == "":
            return "".join(parts).strip()
        return joiner.join(part.strip() for part in parts if part.strip()).strip()


@dataclass
class Paste:
    """What :func:`read_paste` found: the last exception, the warnings (in order), and the text if it has neither."""

    error: Raised | None
    warnings: list[Raised]
    earlier: list[Raised]   # the exceptions before the last one (the last :data:`KEPT_EARLIER`), oldest first
    headers: int          # exception headers seen (chained and wrapped ones counted)
    loose: list[str]      # the lines, when no header and no warning was found (a message pasted alone)


def _strip_prefix(line: str) -> tuple[str, bool]:
    """A line without the decorations of where it was copied from; True if it was pytest's ``>`` source line."""
    stripped = line   # trailing spaces kept: a terminal's wrap may cut a message at one
    if stripped.startswith("[rank") and "]:" in stripped[:16]:   # torchrun: "[rank0]: Traceback ..."
        stripped = stripped[stripped.index("]:") + 2:]
        stripped = stripped[1:] if stripped.startswith(" ") else stripped
    if stripped == "E" or stripped.startswith("E "):              # pytest's error lines: "E       RuntimeError: ..."
        return stripped[1:].strip(), False
    if stripped.startswith(">") and not stripped.startswith(">>>") and stripped[1:2] in (" ", ""):
        return stripped[1:].strip(), True                          # pytest's failing source line
    return stripped, False


def _identifier_path(name: str) -> bool:
    """``name`` is a dotted name of identifiers (``torch.cuda.OutOfMemoryError``)."""
    return bool(name) and all(part.isidentifier() for part in name.split("."))


def _header(line: str) -> tuple[str, str] | None:
    """``line`` as an exception header ``Type: message`` (or a bare ``Type``): its type and message."""
    if not line or line[0] in " \t" or not (line[0].isalpha() or line[0] == "_"):
        return None
    colon = line.find(":")
    name = line if colon < 0 else line[:colon]
    if len(name) > 200 or not _identifier_path(name):
        return None
    last = name.rsplit(".", 1)[-1]
    if not (last.endswith(_TYPE_ENDINGS) or last in _BARE_TYPES):
        return None
    if colon < 0:
        return name, ""
    rest = line[colon + 1:]
    if rest and rest[0] != " ":
        return None
    return name, rest.strip()


def _warning(line: str) -> tuple[str, str, str] | None:
    """``line`` as a warning line ``path:12: UserWarning: message``: its path, type and message."""
    at = line.find("Warning:")
    if at < 0:
        return None
    start = at
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] in "._"):
        start -= 1
    name = line[start:at + len("Warning")]
    if not _identifier_path(name) or start < 3 or line[start - 2:start] != ": ":
        return None
    location = line[:start - 2]
    colon = location.rfind(":")
    if colon <= 0 or not location[colon + 1:].isdigit():
        return None
    return location[:colon].strip(), name, line[at + len("Warning:"):].strip()


def _frame_file(line: str) -> str | None:
    """The file a frame line names (plain Python, IPython old and new, pytest), or None if it is no frame line."""
    text = line.strip()
    if text.startswith('File "'):
        end = text.find('"', 6)
        return text[6:end] if end > 6 else None
    if text.startswith("File ") and line[:1] not in (" ", "\t"):   # IPython 8: File /path/x.py:12, in f(x)
        location = text[5:text.find(", in ")] if ", in " in text else text[5:]
        path, _, number = location.rpartition(":")
        if path and number.isdigit():
            return path
    if text.startswith("Cell In[") or text.startswith("Input In ["):
        return "<cell>"
    if text.startswith("<ipython-input-") and " in " in text:
        return "<cell>"
    if line[:1] not in (" ", "\t") and " in " in text and not text.startswith(("During ", "The above ")):
        path = text.split(" in ", 1)[0]      # old IPython: /path/x.py in f(self, ...)
        if path.endswith(".py") and " " not in path:
            return path
    return _pytest_location(text)


def _pytest_location(text: str) -> str | None:
    """The file of a pytest location line (``test_a.py:5:``, ``path:12: in f``, ``path:823: RuntimeError``)."""
    if text.endswith(":"):
        location, rest = text[:-1], ""
    elif ": " in text:
        location, rest = text.rsplit(": ", 1)
    else:
        return None
    if rest and not (rest.startswith("in ") or _identifier_path(rest)):
        return None
    path, _, number = location.rpartition(":")
    return path if path and number.isdigit() else None


def _arrow_source(line: str) -> str | None:
    """An IPython frame's current line (``----> 4 y.sum().backward()``), its code only."""
    text = line.lstrip()
    if not text.startswith("-->") and not text.startswith("--->"):
        if not text.startswith("-") or "> " not in text[:12]:
            return None
    text = text.lstrip("-").lstrip(">").strip()
    number_end = 0
    while number_end < len(text) and text[number_end].isdigit():
        number_end += 1
    return text[number_end:].strip() or None


def _caret(line: str) -> bool:
    """A caret line of Python 3.11+ (``~~^^``) or of SyntaxError: only ``^``, ``~`` and spaces."""
    text = line.strip()
    return bool(text) and not text.strip("^~ ")


def _ends_message(line: str) -> bool:
    """A line that cannot continue a message (it starts the next part of the paste)."""
    text = line.strip()
    return (not text or text.startswith(("Traceback (most recent call last)", "During handling of the above",
                                         "The above exception was the direct cause", "Set TORCH_LOGS",
                                         "You can suppress this exception", "To execute this test"))
            or "Traceback (most recent call last)" in text or _frame_file(line) is not None
            or set(text) <= set("-_= ") or _log_line(text))


def _log_line(text: str) -> bool:
    """A line of a C++ log (glog: ``E0611 10:02:11.123 ...``) or of Python's logging (``2024-06-11 10:02:11``)."""
    if len(text) > 6 and text[0] in "IWEF" and text[1:5].isdigit() and text[5] == " ":
        return True
    return len(text) > 11 and text[:4].isdigit() and text[4] == "-" and text[7] == "-" and text[10] in " T"


def read_paste(text: str, cancelled: Callable[[], bool] | None = None,
               progress: Callable[[float], None] | None = None,
               on_cancel: Callable[[], BaseException] | None = None) -> Paste:
    """The exceptions and warnings of ``text`` (see the module docstring); one pass over its lines.

    ``cancelled`` is polled every few thousand lines (``on_cancel()`` is raised when it turns True);
    ``progress`` is told the fraction of lines read.
    """
    lines = _undecorated(text.split("\n"))
    total = len(lines)
    frames: list[tuple[str, str | None]] = []      # this traceback's frames: (file, source line)
    pending_source: str | None = None                # pytest: a ">" line, before its location line
    error: Raised | None = None
    earlier: deque[Raised] = deque(maxlen=KEPT_EARLIER)
    warnings: list[Raised] = []
    current: Raised | None = None                     # the exception or warning whose message goes on
    headers = 0
    after_error = False          # frames after an error's header, before another traceback
    for index, raw in enumerate(lines):
        if index % _CHECK_EVERY == 0:
            if cancelled is not None and cancelled():
                raise (on_cancel() if on_cancel is not None else RuntimeError("cancelled"))
            if progress is not None and total:
                progress(index / total)
        line, pytest_source = _strip_prefix(raw)
        if pytest_source:
            pending_source = line or pending_source
            current = None
            continue
        found = _header(line)
        if found is not None and found[0].endswith("Warning"):   # a warning printed without its file:line
            current = Raised("warning", found[0])
            current.add(found[1])
            warnings.append(current)
            continue
        if found is not None:
            headers += 1
            if error is not None:
                earlier.append(error)
            error = current = Raised("error", found[0])
            if found[1]:
                current.add(found[1])
            current.line = _user_line(frames)
            after_error = True
            continue
        warned = _warning(line)
        if warned is not None:
            path, name, message = warned
            current = Raised("warning", name)
            current.add(message)
            current.line = None if is_library(path) else ""   # "": its source line comes next
            warnings.append(current)
            continue
        if current is not None and current.kind == "warning" and current.line == "":
            # The line under a warning is its source line (indented), when the warning's file is the learner's.
            if line[:1] in (" ", "\t") and line.strip() and _frame_file(line) is None:
                current.line = line.strip()
                current = None
                continue
            current.line = None
        if "Traceback (most recent call last)" in line:
            frames = []
            current = None
            after_error = False
            continue
        file = _frame_file(line)
        if file is not None:
            if error is not None and error.line is None and pending_source is not None and not is_library(file):
                error.line = pending_source    # pytest: the failing line, the "E" lines, then where it was
            frames.append((file, pending_source))
            pending_source = None
            current = None
            continue
        if current is not None and current.kind == "error":
            if _ends_message(line):
                current = None
            else:
                current.add(line)
            continue
        if frames and not _caret(line):
            source = _arrow_source(line)
            file, known = frames[-1]
            if source is not None:
                frames[-1] = (file, source)
            elif known is None and line[:1] in (" ", "\t") and line.strip() and not file == "<cell>" \
                    and not line.strip()[:1].isdigit():
                frames[-1] = (file, line.strip())
                if after_error and error is not None and not is_library(file):
                    error.line = line.strip()    # torch.compile's "from user code:" frames, after its message
    if progress is not None:
        progress(1.0)
    for warning in warnings:
        if warning.line == "":
            warning.line = None
    loose = lines if error is None and not warnings else []
    return Paste(error, warnings, list(earlier), headers, loose)


def _undecorated(lines: list[str]) -> list[str]:
    """The lines without what a forum or an issue tracker put around all of them: a Markdown quote (``> `` on
    nearly every line) and an indentation common to every line (a code block, an e-mail). One pass each."""
    filled = [line for line in lines if line.strip()]
    if not filled:
        return lines
    quoted = sum(1 for line in filled if line.lstrip(" ")[:1] == ">" and not line.lstrip(" ").startswith(">>>"))
    if quoted * 10 >= len(filled) * 8:
        lines = [_unquoted(line) for line in lines]
        filled = [line for line in lines if line.strip()]
    indent = min((len(line) - len(line.lstrip(" \t")) for line in filled), default=0)
    return [line[indent:] for line in lines] if indent else lines


def _unquoted(line: str) -> str:
    text = line.lstrip(" ")
    if text[:1] != ">":
        return line
    return text[2:] if text[1:2] == " " else text[1:]


def _user_line(frames: list[tuple[str, str | None]]) -> str | None:
    """The source line of the last frame outside the libraries (the learner's own failing line)."""
    for file, source in reversed(frames):
        if not is_library(file):
            return source
    return None
