"""Fixtures for UI tests: a real window with isolated settings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from tensorlab.ui.window.offscreen import isolated_window


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    """Every test has its own user data, state and config folders (QStandardPaths reads these)."""
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        folder = tmp_path / name.lower()
        folder.mkdir()
        monkeypatch.setenv(name, str(folder))
    return tmp_path


@pytest.fixture
def settings(tmp_path):
    settings = QSettings(str(tmp_path / "tensorlab.ini"), QSettings.Format.IniFormat)
    # The window tests were written against this lesson (the course now starts with `b = a`).
    settings.setValue("session/lesson", "inplace-on-a-leaf")
    return settings


@pytest.fixture
def window(qtbot):
    """The window as a user sees it at 1280x720, from the offscreen renderer: its settings and user data
    in a private temporary folder (``window.settings``)."""
    # The window tests were written against this lesson (the course now starts with `b = a`).
    with isolated_window(lesson="inplace-on-a-leaf", size=(1280, 720), flashes=True) as win:
        qtbot.addWidget(win)
        qtbot.waitExposed(win)
        yield win


def idle(qtbot, win):
    """Wait until the worker has finished every queued step."""
    qtbot.waitUntil(lambda: not win.controller.busy, timeout=30_000)
