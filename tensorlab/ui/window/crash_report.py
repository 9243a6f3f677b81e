"""An unexpected exception costs a dialog, never the window; everything goes to a log file.

:func:`setup_logging` writes Python ``logging`` (and Qt's own warnings) to
``tensorlab.log`` in the user log folder (``QStandardPaths``: the state folder where
Qt has one, else the app's local data folder, then ``log/``). :func:`install` makes
``sys.excepthook`` and ``threading.excepthook`` log the exception and show a dialog
with the details and the log's path; the window keeps running.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, QStandardPaths, QtMsgType, Signal, qInstallMessageHandler
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from tensorlab.ui.widgets.i18n import tr

__all__ = ["log_folder", "setup_logging", "install", "CrashReporter", "show_log_location"]

log = logging.getLogger("tensorlab")
LOG_NAME = "tensorlab.log"


def log_folder() -> Path:
    """The user log folder, from QStandardPaths."""
    location = getattr(QStandardPaths.StandardLocation, "StateLocation",
                       QStandardPaths.StandardLocation.AppLocalDataLocation)
    base = QStandardPaths.writableLocation(location) or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.TempLocation)
    return Path(base) / "log"


def show_log_location(parent: QWidget) -> None:
    """Help → Where is the log?"""
    QMessageBox.information(parent, tr("Log"), tr("TensorLab writes its log to {path}")
                            .format(path=log_folder() / LOG_NAME))


def setup_logging(folder: Path | None = None) -> Path | None:
    """Log to ``folder``/tensorlab.log (rotated at 1 MB); returns the file, or None if it cannot be written."""
    folder = folder or log_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(folder / LOG_NAME, maxBytes=1_000_000, backupCount=3,
                                                       encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("tensorlab")
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return folder / LOG_NAME


def _qt_message(kind: QtMsgType, context: object, message: str) -> None:
    level = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
             QtMsgType.QtWarningMsg: logging.WARNING}.get(kind, logging.ERROR)
    logging.getLogger("tensorlab.qt").log(level, "%s", message)


class CrashReporter(QObject):
    """Logs unexpected exceptions and shows them in a dialog (from any thread, shown in the GUI thread)."""

    reported = Signal(str, str)     # summary, details

    def __init__(self, log_path: Path | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log_path = log_path
        self.dialog: QMessageBox | None = None
        self.count = 0
        self.reported.connect(self._show)

    def handle(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        """sys.excepthook: log, then say so in a dialog; never raise."""
        if issubclass(kind, KeyboardInterrupt):
            QApplication.quit()
            return
        details = "".join(traceback.format_exception(kind, value, tb))
        log.error("unexpected exception:\n%s", details)
        self.count += 1
        self.reported.emit(f"{kind.__name__}: {value}"[:500], details[-20_000:])

    def handle_thread(self, args: threading.ExceptHookArgs) -> None:
        """threading.excepthook."""
        if args.exc_type is not SystemExit:
            self.handle(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback)

    def _show(self, summary: str, details: str) -> None:
        try:
            where = str(self.log_path) if self.log_path else tr("(no log file could be written)")
            text = tr("TensorLab hit an unexpected error. The window keeps running; what you see may be "
                      "incomplete until the next step.") + "\n\n" + summary + "\n\n" + \
                tr("Details are in the log: {path}").format(path=where)
            if self.dialog is not None and self.dialog.isVisible():
                self.dialog.setText(text)
                self.dialog.setDetailedText(details)
                return
            parent = next((w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow"), None)
            self.dialog = QMessageBox(QMessageBox.Icon.Warning, tr("Unexpected error"), text,
                                      QMessageBox.StandardButton.Close, parent if isinstance(parent, QWidget)
                                      else None)
            self.dialog.setObjectName("crashDialog")
            self.dialog.setDetailedText(details)
            self.dialog.setModal(False)
            self.dialog.show()
        except Exception:  # noqa: BLE001 - the report must never raise in turn
            log.exception("the error dialog could not be shown")


def install(log_path: Path | None) -> CrashReporter:
    """Route unexpected exceptions (and Qt's messages) to the log and a dialog."""
    reporter = CrashReporter(log_path, QApplication.instance())
    sys.excepthook = reporter.handle
    threading.excepthook = reporter.handle_thread
    qInstallMessageHandler(_qt_message)
    return reporter
