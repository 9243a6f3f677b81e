"""What the window remembers: one typed facade, the keys once, and settings from 0.1.0 still load."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtWidgets import QDockWidget

from tensorlab.ui.widgets import i18n
from tensorlab.ui.widgets.settings import Key, Settings
from tensorlab.ui.window.build import build_window
from tensorlab.ui.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "data" / "settings-0.1.0.ini"


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    i18n.set_language("en")


@pytest.fixture
def old_settings(tmp_path) -> QSettings:
    """A copy of the settings the 0.1.0 window wrote (tests/data/settings-0.1.0.md says how)."""
    copy = tmp_path / "tensorlab.ini"
    shutil.copy(FIXTURE, copy)
    return QSettings(str(copy), QSettings.Format.IniFormat)


def test_the_window_starts_on_settings_written_by_0_1_0_and_finds_every_value(qtbot, old_settings, tmp_path,
                                                                                monkeypatch):
    restored = []
    original = MainWindow.restoreGeometry

    def restore_geometry(self, geometry):
        restored.append(QByteArray(geometry))
        return original(self, geometry)

    monkeypatch.setattr(MainWindow, "restoreGeometry", restore_geometry)
    saved_geometry = QSettings(str(FIXTURE), QSettings.Format.IniFormat).value("window/geometry")
    window = build_window(old_settings, data_dir=tmp_path / "data")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    # Language, lesson, device and memory budget.
    assert i18n.current_language() == "ko"
    assert window.language_picker.currentData() == "ko"
    assert window.commands.step_forward.text() == "단계"
    assert window.controller.state.lesson is not None
    assert window.controller.state.lesson.id == "indexing-copies-or-writes"
    assert window.lesson_picker.currentData() == "indexing-copies-or-writes"
    assert window.controller.state.device == "cpu" and window.device_picker.currentText() == "cpu"
    assert window.controller.memory_limit == 1610612736   # 1.5 GB, set in Preferences
    # Zoom, class vote, projector mode.
    assert window.zoom.factor == 1.25
    assert window.commands.class_vote.isChecked() and window.narration.class_vote
    assert window.commands.presentation.isChecked() and window.layouts.projector
    # Each mode's layout: the Output closed in projector mode, the Autograd graph in the normal one.
    output, graph = window.findChild(QDockWidget, "outputDock"), window.findChild(QDockWidget, "graphDock")
    assert output.isHidden() and not graph.isHidden()
    window.set_presentation(False)
    assert graph.isHidden() and not output.isHidden()
    # The geometry (1280x720 when it was closed; the offscreen screen is smaller, so it is fitted to it after).
    assert isinstance(saved_geometry, QByteArray) and restored == [saved_geometry]
    # The Measure dock was placed once: shown again, it stays where the layout has it (no floating).
    measure = window.findChild(QDockWidget, "measureDock")
    measure.toggleViewAction().trigger()
    assert measure.isVisible() and not measure.isFloating()
    window.close()


def test_settings_written_now_keep_the_0_1_0_keys_and_formats(tmp_path):
    """A file written now still loads in 0.1.0: the same keys, booleans as text, the budget as digits."""
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings = Settings(store)
    settings.language, settings.device, settings.lesson = "ko", "cuda:0", "views-share-memory"
    settings.memory_limit, settings.zoom = 3 * 1024**3, 1.4
    settings.class_vote, settings.projector = True, False
    settings.geometry = QByteArray(b"\x01\xd9geometry")
    settings.set_layout("normal", QByteArray(b"normal-state"))
    settings.set_dock_placed("measureDock")
    settings.sync()
    text = (tmp_path / "s.ini").read_text(encoding="utf-8")
    for line in ("language=ko", "device=cuda:0", "lesson=views-share-memory", "memory_limit=3221225472",
                 "class_vote=true", "presentation=false", "zoom=1.4", r"measureDock\placed=true"):
        assert line in text.splitlines(), line
    assert "[layout]" in text and "normal-v3=@ByteArray(normal-state)" in text
    again = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert (again.language, again.device, again.lesson, again.memory_limit, again.zoom, again.class_vote,
            again.projector) == ("ko", "cuda:0", "views-share-memory", 3 * 1024**3, 1.4, True, False)
    assert again.geometry == QByteArray(b"\x01\xd9geometry") and again.layout("normal") == QByteArray(b"normal-state")
    assert again.layout("projector") is None and again.dock_placed("measureDock")
    assert not again.dock_placed("copyMatrixDock")


@pytest.mark.parametrize(("stored", "flag"), [("true", True), ("True", True), (" TRUE ", True), (True, True),
                                              ("false", False), (False, False), ("yes", False), ("", False),
                                              (1, False), (None, False)])
def test_a_flag_reads_as_a_bool(tmp_path, stored, flag):
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    if stored is not None:
        store.setValue(Key.CLASS_VOTE, stored)
    assert Settings(store).class_vote is flag


@pytest.mark.parametrize(("stored", "zoom", "memory"), [
    ("1.25", 1.25, None), (2, 2.0, None), ("2", 2.0, None), ("many", None, None), ("-1", None, None),
    ("nan", None, None), ("inf", None, None), ("0", None, None), ("", None, None), ("1e3", 1000.0, None),
])
def test_numbers_read_with_their_type_and_nonsense_reads_as_the_default(tmp_path, stored, zoom, memory):
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    store.setValue(Key.ZOOM, stored)
    store.setValue(Key.MEMORY_LIMIT, stored)
    settings = Settings(store)
    assert settings.zoom == zoom
    assert settings.memory_limit == memory


@pytest.mark.parametrize(("stored", "memory"), [
    (str(1 << 30), 1 << 30), (1 << 30, 1 << 30), (str(1 << 26), 1 << 26),
    ("1", None), (str(1 << 20), None),                                    # under what Preferences offers
    ("99999999999999999999999999", None), (str(1 << 62), None),           # more than this machine has
])
def test_a_memory_budget_is_only_what_preferences_could_have_set(tmp_path, stored, memory):
    """A budget of a byte refuses every step; one of 10^26 bytes made the worker fail to start (its address-space
    cap overflowed) on every launch, since the window writes the value back on close."""
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    store.setValue(Key.MEMORY_LIMIT, stored)
    assert Settings(store).memory_limit == memory


def test_a_hand_edited_file_with_nonsense_still_starts_the_window(qtbot, tmp_path):
    ini = tmp_path / "tensorlab.ini"
    ini.write_text("[session]\nlanguage=xx\ndevice=not a device\nlesson=no-such-lesson\nmemory_limit=lots\n"
                   "[view]\nzoom=huge\n[narration]\nclass_vote=maybe\n[window]\npresentation=1\n"
                   "geometry=not bytes\n[layout]\nnormal-v3=garbage\n", encoding="utf-8")
    window = build_window(QSettings(str(ini), QSettings.Format.IniFormat), data_dir=tmp_path / "data")
    qtbot.addWidget(window)
    assert window.controller.state.device == "cpu"
    assert window.zoom.factor == 1.0
    assert not window.commands.class_vote.isChecked() and not window.commands.presentation.isChecked()
    assert window.controller.state.lesson is not None   # the first lesson, not a crash
    window.close()


def test_every_key_is_written_once_and_only_the_facade_reads_or_writes_qsettings():
    facade = ROOT / "tensorlab" / "ui" / "widgets" / "settings.py"
    found = []
    for path in sorted((ROOT / "tensorlab").rglob("*.py")):
        if path == facade:
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in (r"\.value\(\s*[\"'A-Za-z]", r"\.setValue\(\s*[\"']", r"settings\.(value|setValue|remove)\(",
                        r"store\.(value|setValue|remove)\(", r"[\"'](session|window|view|narration|layout|docks)/"):
            found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert not found, "settings read or written outside ui/widgets/settings.py:\n" + "\n".join(found)
    keys = [k.value for k in Key]
    assert len(keys) == len(set(keys))


def test_the_zoom_and_class_vote_are_remembered_through_the_facade(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    window.commands.class_vote.trigger()
    again = Settings(window.settings.store)
    assert again.zoom == window.zoom.factor == 1.1
    assert again.class_vote
