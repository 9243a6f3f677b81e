"""Languages of the window: Qt's QTranslator, and texts that follow a language change.

UI texts are English in the source and translated through Qt's machinery
(`tensorlab/resources/i18n/tensorlab_<lang>.qm`, compiled with `pyside6-lrelease` from the `.ts`
file that `pyside6-lupdate` regenerates from the sources). Widgets register their static texts with
:class:`Texts`, which sets them again when Qt sends ``LanguageChange``; texts drawn from a state
are translated at render time, and the window re-renders when the language changes.

Every UI text is a string literal where it is written, in one of the two forms lupdate extracts:
``tr("...")`` where it is shown at once, and ``QT_TR_NOOP("...")`` where it is defined for later
(a table, a registry, ``Texts.bind``). ``QT_TR_NOOP`` returns a :data:`Marked` text, and only a
``Marked`` text is translated later (:func:`tr_marked`, :meth:`Texts.bind`), so the type checker
holds that no text reaches the translator without lupdate having seen it: the catalogue is the
sources' and nobody keeps it by hand (tests/ui/widgets/test_catalogue.py). lupdate files both bare
calls under the empty context, which is therefore the one the translator is asked in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NewType

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QObject, QTranslator

from tensorlab.core.files.package_data import resources_dir
from tensorlab.core.messages.korean_particles import ko

__all__ = ["LANGUAGES", "Marked", "QT_TR_NOOP", "tr", "tr_marked", "Texts", "set_language", "current_language"]

# The context lupdate gives a bare ``tr("...")`` or ``QT_TR_NOOP("...")`` call outside a class; a method
# call (``self.tr``, ``i18n.tr``) would file its text under the object's name instead, so none is used.
CONTEXT = ""
LANGUAGES = {"en": "English", "ko": "한국어"}

_translator: QTranslator | None = None
_qt_translator: QTranslator | None = None   # Qt's own texts (file dialogs, standard buttons)
_language = "en"
requested: set[str] | None = None  # when a set, every source text asked for is added (for tests)

Marked = NewType("Marked", str)
"""A UI text marked for the catalogue where it is written (only :func:`QT_TR_NOOP` makes one)."""


class Template(str):
    """A translated text whose ``format`` also puts Korean particles right.

    A translation may write ``{name:을}``: ``format(name="x")`` gives "x를" and
    ``format(name="m")`` gives "m을" (:func:`tensorlab.core.messages.korean_particles.ko`), so no
    call site has to know which language it formats.
    """

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:  # noqa: A003 - str's own name
        if args:
            return str.format(self, *args, **kwargs)
        return ko(str(self), **kwargs)


def QT_TR_NOOP(text: str) -> Marked:  # noqa: N802 - the name lupdate looks for
    """``text`` unchanged, marked: a literal for the catalogue where it is defined, translated later.

    Call it with a string literal only (lupdate reads it there); :func:`tr_marked` and
    :meth:`Texts.bind` translate the result. Qt's own ``QtCore.QT_TR_NOOP`` is typed ``object -> object``.
    """
    return Marked(text)


def tr(text: str) -> str:
    """``text``, a string literal, in the current language (English when no translation exists)."""
    return _translate(text)


def tr_marked(text: Marked) -> str:
    """A text marked with :func:`QT_TR_NOOP` where it was defined, in the current language."""
    return _translate(text)


def _translate(text: str) -> str:
    if not text:
        return text
    if requested is not None:
        requested.add(text)
    # The one translate() of a variable: every text reaching here was a literal in tr() or QT_TR_NOOP().
    return Template(QCoreApplication.translate(CONTEXT, text))


def current_language() -> str:
    """The code of the language the window shows (`en`, `ko`)."""
    return _language


def set_language(language: str) -> bool:
    """Install the translator for ``language``; Qt then sends LanguageChange to every widget.

    Returns False (and keeps English) when no translation file exists for it.
    """
    global _translator, _qt_translator, _language
    app = QCoreApplication.instance()
    if app is None:
        return False
    for installed in (_translator, _qt_translator):
        if installed is not None:
            app.removeTranslator(installed)
    _translator = _qt_translator = None
    _language = "en"
    if language == "en":
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
        return True
    translator = QTranslator(app)
    path = resources_dir() / "i18n" / f"tensorlab_{language}.qm"
    if not translator.load(str(path)):
        return False
    app.installTranslator(translator)
    _translator = translator
    _language = language
    # Qt's own dialogs (Open, Save, Cancel) in the same language, where Qt ships the translation.
    qt_translator = QTranslator(app)
    if qt_translator.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_translator)
        _qt_translator = qt_translator
    # Deliver the LanguageChange events now, so the window reads in the new language at once.
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    return True


class Texts(QObject):
    """The static texts of one widget, set again in the new language on LanguageChange."""

    def __init__(self, widget: QObject) -> None:
        super().__init__(widget)
        self._bindings: list[tuple[Callable[[str], object], Marked]] = []
        self._callbacks: list[Callable[[], object]] = []
        widget.installEventFilter(self)

    def bind(self, setter: Callable[[str], object], text: Marked) -> None:
        """Call ``setter(tr_marked(text))`` now and whenever the language changes.

        ``text`` is marked for the catalogue where it is written: ``bind(label.setText, QT_TR_NOOP("Run"))``.
        """
        self._bindings.append((setter, text))
        setter(tr_marked(text))

    def on_change(self, callback: Callable[[], object]) -> None:
        """Also call ``callback`` when the language changes (to re-render dynamic texts)."""
        self._callbacks.append(callback)

    def retranslate(self) -> None:
        """Set every bound text again, in the current language."""
        for setter, text in self._bindings:
            setter(tr_marked(text))
        for callback in self._callbacks:
            callback()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        return False
