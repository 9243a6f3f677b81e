"""A line of PyTorch typed by the user, with completion of names and methods."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, QPoint, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMoveEvent, QResizeEvent
from PySide6.QtWidgets import QCompleter, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from tensorlab.core.lang import allowlist as allow
from tensorlab.ui.widgets.html import escape
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, tr

__all__ = ["CodeLineEdit", "CodeLinePanel"]

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*$")
# A row's name may hold indices and keys (`parts[0]`, `sd['weight']`, `net[0].bias`: contract 3, issue #16).
# What `nn.`, `F.` and `optim.` may name (core/lang/subset_rules.module_names reads the same lists).
_ALIASED = {"nn": allow.NN_CLASSES, "F": allow.FUNCTIONAL, "optim": allow.OPTIMIZERS}
_ROW_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\[\]'\"]*$")


class CodeLineEdit(QLineEdit):
    """A QLineEdit that completes the word before the cursor: names, `torch.` functions, methods."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names: tuple[str, ...] = ()
        self.rows: tuple[str, ...] = ()     # tensors the names reach (`parts[0]`, `net[0].weight`)
        # The type of each name bound to something else than a tensor (the snapshot's `others`): what
        # `NAME.` completes to (`opt.` an optimizer's methods, `net.` a module's).
        self.types: dict[str, str] = {}
        self._model = QStringListModel(self)
        self.completer_ = QCompleter(self._model, self)
        self.completer_.setWidget(self)
        self.completer_.setCaseSensitivity(Qt.CaseSensitivity.CaseSensitive)
        self.completer_.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer_.activated.connect(self.insert_completion)
        popup = self.completer_.popup()
        assert popup is not None  # a completer makes its popup when asked for it
        popup.installEventFilter(self)  # after the completer's own filter: Tab reaches this one first

    def token(self, text: str) -> re.Match[str] | None:
        """The word before the end of ``text`` that completion replaces: a row's name with its indices when
        one starts so (`parts[` completes to `parts[0]`), else a plain name or dotted name."""
        row = _ROW_TOKEN.search(text)
        if row is not None and any(r.startswith(row.group(0)) for r in self.rows):
            return row
        return _TOKEN.search(text)

    def candidates(self, token: str) -> list[str]:
        """Completions for the word being typed: after `torch.`, `copy.`, `nn.`, `F.` and `optim.` what the
        subset allows there; after `NAME.` the methods and attributes allowed for that name's type."""
        rows = [r for r in self.rows if r.startswith(token) and r != token]
        if "[" in token and not token.endswith("."):
            return rows
        if "." in token:
            base, _, _ = token.rpartition(".")
            return rows + [f"{base}.{m}" for m in sorted(self._members(base))]
        return sorted(set(self.names) | set(rows) | allow.MODULES | {"print", "len", "id", "list"})

    def _members(self, base: str) -> frozenset[str]:
        """What may follow `base.`: a module's names, else the members of the type of what ``base`` reads."""
        if base == "torch":
            return allow.TORCH_FUNCTIONS | allow.TORCH_DTYPES | {path[1] for path in allow.FULL_FORMS}
        full = allow.FULL_FORMS.get(tuple(base.split(".")))   # `torch.nn.`: what `nn.` may name
        if full is not None:
            return _ALIASED[full] | ({"functional"} if full == "nn" else frozenset())
        if base == "copy":
            return allow.COPY_FUNCTIONS
        if base in allow.MODULE_ALIASES:
            return _ALIASED[base]
        if base in self.types:
            return allow.members_of(self.types[base])
        root = re.match(r"[A-Za-z_][A-Za-z0-9_]*", base)
        if root is not None and not self._bound(root.group(0)):
            return frozenset()   # a name no step binds yet: nothing to offer (not a tensor's members)
        kind = self.types.get(root.group(0), "") if root is not None and base not in self.rows else ""
        if kind in allow.MODULE_CLASS_ATTRIBUTES:   # `net[0].`: a layer of a module (of whichever class)
            return allow.MODULE_ATTRIBUTES
        return allow.TENSOR_METHODS | allow.TENSOR_ATTRIBUTES   # a tensor, a row, or what the line reads

    def _bound(self, name: str) -> bool:
        """Whether the session has ``name`` (a tensor, another object, or the root of a row)."""
        return (name in self.names or name in self.types
                or any(re.match(rf"{re.escape(name)}(?![A-Za-z0-9_])", row) for row in self.rows))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """Tab in the pop-up accepts its current completion (the one selected, else the first), as in an editor.

        Installed on the pop-up after the completer's own filter, so it runs first: the completer would hide
        the pop-up and pass Tab on, which moves the focus to the Run button."""
        popup = self.completer_.popup()
        if (watched is popup and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Tab and popup is not None and popup.isVisible()):
            index = popup.currentIndex()
            completion = (index.data() if index.isValid() else None) or self.completer_.currentCompletion()
            popup.hide()
            if completion:
                self.insert_completion(str(completion))
            return True
        return super().eventFilter(watched, event)

    def insert_completion(self, completion: str) -> None:
        """Replace the word before the cursor with ``completion``."""
        text, cursor = self.text(), self.cursorPosition()
        match = self.token(text[:cursor])
        start = match.start() if match else cursor
        self.setText(text[:start] + completion + text[cursor:])
        self.setCursorPosition(start + len(completion))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        popup = self.completer_.popup()
        assert popup is not None  # a completer makes its popup when asked for it
        if popup.isVisible() and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab,
                                                 Qt.Key.Key_Escape):
            event.ignore()  # the completer's popup takes these
            return
        super().keyPressEvent(event)
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            return
        match = self.token(self.text()[: self.cursorPosition()])
        if not match or not event.text():
            popup.hide()
            return
        token = match.group(0)
        self._model.setStringList(self.candidates(token))
        self.completer_.setCompletionPrefix(token)
        if self.completer_.completionCount() and self.completer_.currentCompletion() != token:
            rect = self.cursorRect()
            rect.setWidth(popup.sizeHintForColumn(0) + popup.verticalScrollBar().sizeHint().width())
            self.completer_.complete(rect)
        else:
            popup.hide()


class CodeLinePanel(QWidget):
    """The code line, its Run button, and the reason a line was refused."""

    statementRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.i18n = Texts(self)
        self.edit = CodeLineEdit()
        self.edit.setObjectName("codeLine")
        self.i18n.bind(self.edit.setAccessibleName, QT_TR_NOOP("Code line: any statement of the TensorLab subset"))
        self.i18n.bind(self.edit.setPlaceholderText, QT_TR_NOOP("a line of PyTorch, e.g. y = x.clone() * 2"))
        self.run_button = QPushButton()
        self.run_button.setObjectName("runCodeButton")
        self.i18n.bind(self.run_button.setText, QT_TR_NOOP("Run"))
        self.i18n.bind(self.run_button.setAccessibleName, QT_TR_NOOP("Run the code line"))
        self.i18n.bind(self.run_button.setToolTip, QT_TR_NOOP("Run the code line (Ctrl+Return)"))
        row.addWidget(self.edit, 1)
        row.addWidget(self.run_button)
        # Why a line was refused: shown over the window just under the line, in no layout, so showing it
        # never makes the bar taller and every dock shorter (it hides as soon as you edit the line).
        self.problem = QLabel()
        self.problem.setObjectName("codeLineProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c62828; background: #fff8f8; border: 1px solid #e57373; padding: 3px;")
        self.problem.hide()
        layout.addLayout(row)
        self.run_button.clicked.connect(self.request)
        self.edit.returnPressed.connect(self.request)
        self.edit.textEdited.connect(lambda _: self.show_problem(""))

    def request(self) -> None:
        """Emit the typed line (empty lines are ignored)."""
        code = self.edit.text().strip()
        if not code:
            self.show_problem(tr("Type a statement first, e.g. y = x.detach()"))
            return
        self.statementRequested.emit(code)

    def show_problem(self, message: str) -> None:
        """Show why the line was refused, under it, already in the window's language (empty: hide)."""
        self.problem.setText(escape(message))
        if not message:
            self.problem.hide()
            return
        window = self.window()
        if window is not self and self.problem.parentWidget() is not window:
            font = self.problem.font()
            self.problem.setParent(window)      # over the window, in no layout
            self.problem.setFont(font)
        self._place_problem()
        self.problem.show()

    def _place_problem(self) -> None:
        """The refusal just under the line, as wide as it (it moves with the line when the window does)."""
        window = self.problem.parentWidget()
        if window is None or window is self or window is not self.window():
            return
        self.problem.setFixedWidth(max(200, self.width()))
        self.problem.setFixedHeight(self.problem.heightForWidth(self.problem.width()))
        self.problem.move(self.mapTo(window, QPoint(0, self.height() + 2)))
        self.problem.raise_()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.problem.isVisible():
            self._place_problem()

    def moveEvent(self, event: QMoveEvent) -> None:  # noqa: N802 - Qt's name
        super().moveEvent(event)
        if self.problem.isVisible():
            self._place_problem()

    def accepted(self) -> None:
        """The line was accepted and is running: clear it for the next one."""
        self.show_problem("")
        self.edit.clear()
