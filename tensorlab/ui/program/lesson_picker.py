"""The lesson picker's items: lessons grouped under their chapter headings."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox

from tensorlab.core.lessons.lesson import Lesson
from tensorlab.ui.widgets.i18n import tr

__all__ = ["fill_lesson_picker"]


def fill_lesson_picker(picker: QComboBox, lessons: Sequence[Lesson], language: str) -> None:
    """Replace ``picker``'s items: a bold heading per chapter, then its lessons (data: the lesson id).

    Headings cannot be chosen (the arrow keys skip them); lessons without a
    chapter are grouped under "Other lessons".
    """
    picker.clear()
    chapter = None
    for lesson in lessons:
        heading = lesson.text("chapter", language) if lesson.chapter else tr("Other lessons")
        if heading != chapter:
            chapter = heading
            picker.addItem(heading)
            item = picker.model().item(picker.count() - 1)  # type: ignore[attr-defined]
            item.setEnabled(False)
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        picker.addItem(lesson.text("title", language), lesson.id)
