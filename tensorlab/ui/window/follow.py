"""Which tensors a step made or changed: the panels follow them, the pickers offer them first; the map's mark
of the others it changed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QAbstractScrollArea, QLabel

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.ui.panels.storage_map import refused_write
from tensorlab.ui.widgets.i18n import Texts, current_language
from tensorlab.ui.widgets.text_zoom import pixel_font

__all__ = ["fresh_tensors", "changed_tensors", "followed_tensor", "narration_speaks", "question_subject",
           "newest_made", "more_changed", "changed_label", "question_asked", "ChangedMark"]


def fresh_tensors(snapshot: Snapshot, previous: Snapshot) -> tuple[str, ...]:
    """Names bound to a tensor now that were not bound to that tensor object before."""
    fresh = []
    for info in snapshot.tensors:
        old = previous.tensor(info.name)
        if old is None or old.object_id != info.object_id:
            fresh.append(info.name)
    return tuple(fresh)


def changed_tensors(snapshot: Snapshot, previous: Snapshot) -> tuple[str, ...]:
    """Tensors whose values, version, gradient or requires_grad the step changed (same object as before):
    `model[0].weight.requires_grad_(False)` is about model[0].weight (review r17c: the map showed z)."""
    changed = []
    for info in snapshot.tensors:
        old = previous.tensor(info.name)
        if old is not None and old.object_id == info.object_id and (
                old.values != info.values or old.version != info.version or old.grad != info.grad
                or old.requires_grad != info.requires_grad):
            changed.append(info.name)
    return tuple(changed)


def _reached(snapshot: Snapshot, name: str) -> str | None:
    """The row that stands for ``name``: the tensor bound to it, else the first tensor it reaches (contract 3:
    `parts[0]` of a tuple, `sd['weight']` of a dict, `net[0].weight` of a module), else None."""
    if snapshot.tensor(name) is not None:
        return name
    for info in snapshot.tensors:   # in order of first binding, then the container's own order
        if info.name.startswith((name + "[", name + ".")):
            return info.name
    return None


def _named_tensor(snapshot: Snapshot, text: str) -> str | None:
    """The tensor whose name ``text`` starts with (``net[1].weight.grad`` -> ``net[1].weight``), the longest."""
    text = text.strip()
    best: str | None = None
    for info in snapshot.tensors:
        name = info.name
        if text == name or (text.startswith(name) and not (text[len(name)].isalnum() or text[len(name)] == "_")):
            if best is None or len(name) > len(best):
                best = name
    return best


def question_subject(state: PlayerState) -> str | None:
    """The tensor the step just run is about, as its lesson says: its question's check
    (``check = "net[1].weight.grad"``), else its first fact ("net[1].weight.grad is [[3.5, 3.5]]")."""
    if state.position == 0 or state.position > len(state.program):
        return None
    step = state.program[state.position - 1]
    texts = ([step.ask.check] if step.ask is not None and step.ask.check else []) + list(step.facts[:1])
    for text in texts:
        subject = _named_tensor(state.snapshot, text)
        if subject is not None:
            return subject
    return None


def question_asked(state: PlayerState) -> str | None:
    """The tensor the next step's question asks about (``check = "net[1].weight.grad"``: net[1].weight), when it
    exists already: while the question is open the panels show it as it is before the step (review r17c: the
    map stayed on x and loss while the class was asked about net[1].weight.grad)."""
    if state.position >= len(state.program):
        return None
    ask = state.program[state.position].ask
    if ask is None or not ask.check:
        return None
    return _named_tensor(state.snapshot, ask.check)


def followed_tensor(state: PlayerState, since: int | None = None) -> str | None:
    """The tensor the last step assigned (the last one it binds), or else the one it changed in place.

    A step that failed is about the tensor it used: a failing ``y.sum().backward()`` is about ``y``
    (its graph holds the saved tensor that changed), a refused write about the tensor written.
    ``since``: the position shown before (End ran several steps): when the last step made and read nothing,
    the newest tensor an earlier step of the run made (and that still exists). A step that only read follows
    nothing: the tensor it read is selected (:func:`newest_made`), unless the user chose one (one tensor read).
    """
    if state.position == 0 or state.position > len(state.program):
        return None
    snapshot = state.snapshot
    step = state.program[state.position - 1]
    last = state.last
    if last is not None and last.ok:
        # The step's question (or its note's first fact) is about one of the tensors it made or changed: that
        # one (`net(x).sum().backward()` asks about net[1].weight.grad, and changes net[0].weight.grad too).
        subject = question_subject(state)
        touched = fresh_tensors(snapshot, state.previous_snapshot) + changed_tensors(snapshot, state.previous_snapshot)
        if subject is not None and subject in touched:
            return subject
    # A container or a module the step binds is followed at its first row (`parts = x.unbind()`: `parts[0]`).
    defines = [row for n in step.statement.defines if (row := _reached(snapshot, n)) is not None]
    if defines:
        return defines[-1]
    refused = refused_write(last)
    if refused is not None and snapshot.tensor(refused[0]) is not None:
        return refused[0]   # the tensor torch refused to write into (not the source it was copying)
    uses = [n for n in step.statement.uses if snapshot.tensor(n) is not None]
    if last is not None and not last.ok and uses:
        graphs = [n for n in uses if (info := snapshot.tensor(n)) is not None and info.grad_fn is not None]
        return (graphs or uses)[0]
    changed = changed_tensors(snapshot, state.previous_snapshot)
    changed_uses = [n for n in uses if n in changed]
    if changed_uses:
        return changed_uses[0]
    if changed:
        return changed[0]
    if _read_only(state) is not None:
        return None   # a step that only read one (`print(x)`): :func:`newest_made` selects it, or the user's choice
    for position in range(state.position - 1, max(state.position if since is None else since, 1) - 1, -1):
        made = [row for n in state.program[position - 1].statement.defines
                if (row := _reached(snapshot, n)) is not None]
        if made:
            return made[-1]
    return None


def _read_only(state: PlayerState) -> str | None:
    """The one tensor the last step read, where it ran, made nothing and read just that one (`print(x.grad)`): what
    the step was about, rather than what an earlier step made (review helper-158, D5: the map and the Values panel
    showed total after `print(x)`). None otherwise; a step that reads several (`print(a, r)`) keeps what the run
    made, and the map shows what it prints."""
    if not 0 < state.position <= len(state.program) or (state.last is not None and not state.last.ok):
        return None
    snapshot = state.snapshot
    step = state.program[state.position - 1]
    read = [n for n in step.statement.uses if snapshot.tensor(n) is not None]
    if len(read) != 1 or any(_reached(snapshot, n) is not None for n in step.statement.defines):
        return None
    return read[0]


def newest_made(state: PlayerState) -> str | None:
    """The tensor the latest step that made one made (and that still exists): what a state whose last step made
    and changed nothing shows selected, however it was reached (stepping to it, End, ``--step N``); where that last
    step read one tensor (``print(x)``), that one."""
    snapshot = state.snapshot
    read = _read_only(state)
    if read is not None:
        return read
    for position in range(state.position, 0, -1):
        made = [row for n in state.program[position - 1].statement.defines
                if (row := _reached(snapshot, n)) is not None]
        if made:
            return made[-1]
    return None


def _storage_of(snapshot: Snapshot, name: str) -> object:
    """The storage ``name`` views (itself where it has none: a tensor without storage is its own strip)."""
    info = snapshot.tensor(name)
    return ("tensor", name) if info is None or info.storage is None else info.storage


def more_changed(state: PlayerState, followed: str | None) -> tuple[str, ...]:
    """The other tensors the last step made or changed, on storages other than ``followed``'s (those are on its
    strip already): the "+N more changed" the map says, since it shows the followed one."""
    if followed is None or state.position == 0:
        return ()
    snapshot, previous = state.snapshot, state.previous_snapshot
    home = _storage_of(snapshot, followed)
    others: list[str] = []
    seen: set[object] = {home}
    for name in fresh_tensors(snapshot, previous) + changed_tensors(snapshot, previous):
        storage = _storage_of(snapshot, name)
        if name == followed or name in others or storage in seen:
            continue
        seen.add(storage)
        others.append(name)
    return tuple(others)


def narration_speaks(state: PlayerState) -> bool:
    """The narration has what the class must see now: the next step's question, or the answer of the step
    just run (its verdict and explanation). The panel brought forward after a step is then the narration."""
    ahead = state.program[state.position].ask if state.position < len(state.program) else None
    just_run = state.program[state.position - 1].ask if 0 < state.position <= len(state.program) else None
    return ahead is not None or just_run is not None


def changed_label(state: PlayerState, name: str) -> str | Message:
    """How the "+N more changed" mark names tensor ``name``: ``net[0].weight.grad`` when the step changed only its
    gradient (a backward() writes the ``.grad``, not the parameter; ``net[0].weight.grad (now None)`` when
    ``zero_grad()`` dropped it), else its name."""
    info, old = state.snapshot.tensor(name), state.previous_snapshot.tensor(name)
    if info is not None and old is not None and old.object_id == info.object_id \
            and old.grad != info.grad and old.values == info.values and old.version == info.version:
        if info.grad is None:   # zero_grad() dropped it: the gradient changed, not the weight (review r17o 3)
            return msg("follow.grad_now_none", name=name + ".grad")   # rendered in the mark's language
        return name + ".grad"
    return name


class ChangedMark(QLabel):
    """"+N more changed: net[1].weight, …" in a row of its own under the storage map's strips (the map keeps the
    row while the mark shows: it never covers a cell, a band's label or a heading), while the step just run
    changed tensors on other strips than the one the map follows (review r17: after ``opt.step()`` only
    net[0].weight showed, and nothing said net[1].weight had changed too). A click selects the first of them."""

    NAMES = 3   # named in the mark; the rest are "…"

    def __init__(self, view: QAbstractScrollArea, select: Callable[[str], None]) -> None:
        super().__init__(view)
        self.setObjectName("changedMark")
        self.view = view
        self._select = select
        self.names: tuple[str, ...] = ()   # the changed tensors the mark names: those not whole in the map's view
        self.labels: tuple[str | Message, ...] = ()   # what the mark says of each (``net[0].weight.grad``)
        self._changed: tuple[tuple[str, str | Message], ...] = ()   # every one the step changed, with its label
        # Whether the map shows a tensor whole (a mark naming net[1].weight while it was in view: review r17p 6).
        self._in_view: Callable[[str, bool], bool] | None = getattr(view, "shows_whole", None)
        # The tensor the map follows is named only once none of it is in view (the learner scrolled it away:
        # review helper-145, item 2); a large one is never whole.
        self._partly_in_view: Callable[[str, bool], bool] | None = getattr(view, "shows_part", None)
        self.followed: str | None = None
        self.scale = 1.0
        self._placing = False
        self._refilter_due = False   # a check of what is in view is asked for (place())
        self.setWordWrap(False)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        # Amber, as the map marks what changed; dark text on it (contrast well over 4.5:1).
        self.setStyleSheet("QLabel#changedMark { background: #ffe082; color: #1a1a1a; border: 1px solid #b28704;"
                           " border-radius: 4px; padding: 1px 8px; }")
        self.hide()
        view.installEventFilter(self)   # the map resized (its docks settled after the step): placed again
        view.viewport().installEventFilter(self)
        for bar in (view.verticalScrollBar(), view.horizontalScrollBar()):
            bar.valueChanged.connect(lambda _value: self.place())   # the strip moved under it
        self.i18n = Texts(self)
        self.i18n.on_change(self._render)

    def show_names(self, names: tuple[str, ...], scale: float = 1.0,
                   labels: tuple[str | Message, ...] | None = None, followed: str | None = None) -> None:
        """Say those of ``names`` the map does not show whole (none: hidden) as ``labels`` (their names where not
        given), its text at ``scale``; again as the map scrolls. ``followed``, one of ``names``: the tensor the map
        scrolled to, said only while none of it is in view."""
        self.scale = scale
        self.followed = followed
        labels = labels if labels is not None and len(labels) == len(names) else names
        self._changed = tuple(zip(names, labels))
        self._render()

    def _unseen(self) -> tuple[tuple[str, str | Message], ...]:
        # A tensor whose step changed only its gradient (its label `net[0].weight.grad`) is seen when its
        # gradient's cells are.
        unseen = []
        for name, label in self._changed:
            in_view = self._partly_in_view if name == self.followed else self._in_view
            if in_view is None or not in_view(name, label == f"{name}.grad"):
                unseen.append((name, label))
        return tuple(unseen)

    def _render(self) -> None:
        unseen = self._unseen()
        self.names, self.labels = tuple(n for n, _ in unseen), tuple(label for _, label in unseen)
        if not self.names:
            self.hide()
            self._reserve(0)
            return
        language = current_language()
        texts = [label if isinstance(label, str) else label.render(language) for label in self.labels]
        self.setFont(pixel_font(15, self.scale, bold=True, base=self.view.font()))
        metrics = self.fontMetrics()
        room = max(80, self.view.viewport().width() - 8) - 2 * 8 - 4   # (the style's padding and border)
        # As many whole names as fit the map's width (three at most, "…" for the rest: they were cut mid-name at
        # its edge), the count always; the full list in the tooltip; cut with "…" only if one name does not fit.
        text = ""
        for named in range(min(self.NAMES, len(texts)), 0, -1):
            text = self._text(texts, named, language)
            if metrics.horizontalAdvance(text) <= room:
                break
        shown_text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
        self.setText(shown_text)
        every = self._text(texts, len(texts), language)
        self.setToolTip(every if shown_text != every else "")
        self._place()
        self.show()
        self.raise_()

    def _text(self, texts: list[str], named: int, language: str) -> str:
        """The mark's text naming the first ``named`` of ``texts`` (the rest as "…")."""
        shown = ", ".join(texts[:named])
        if len(texts) > named:
            shown = msg("follow.more_names", names=shown).render(language)
        return msg("follow.more_changed", count=len(texts), names=shown).render(language)

    def _reserve(self, height: int) -> None:
        """The map keeps a row of ``height`` px under its strips for the mark (0: the row goes)."""
        reserve = getattr(self.view, "reserve_row", None)
        if callable(reserve):
            reserve(height)

    def _place(self) -> None:
        """In the row the map keeps under its strips' viewport, at its left (what changed below the fold is
        below it): outside the strips, so it covers none of them."""
        viewport = self.view.viewport()
        self.setMaximumWidth(max(80, viewport.width() - 8))
        self.adjustSize()
        self._reserve(self.height() + 4)   # (the row is the map's: a little of the strips' room, never over them)
        below = viewport.geometry()   # (in the map's own coordinates: the mark is the map's child)
        self.move(QPoint(below.left() + 4, below.bottom() + 1 + 2))

    def place(self) -> None:
        """Placed again, and once the map has settled (a step's landing scrolls it several times), naming what is
        still out of view (the map scrolled to what it follows, or the learner scrolled a changed strip into view)."""
        if self._changed and not self._placing:
            self._placing = True   # (placing it resizes the viewport, which sends a resize)
            try:
                if self.names:
                    self._place()
            finally:
                self._placing = False
            if not self._refilter_due:
                self._refilter_due = True
                QTimer.singleShot(0, self, self._refilter)   # (cancelled with the mark)

    def _refilter(self) -> None:
        """Name again what is out of view now (asked once per pass of the event loop, not at every scroll event)."""
        self._refilter_due = False
        if self._changed and not self._placing and tuple(n for n, _ in self._unseen()) != self.names:
            self._placing = True
            try:
                self._render()
            finally:
                self._placing = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest, QEvent.Type.Show):
            self.place()
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self.names:
            self._select(self.names[0])
        event.accept()
