"""The window survives what kills torch: crashes, endless steps, closing mid-step."""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.ui.window.build import build_window
from tests.ui.conftest import idle

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the fork server is POSIX-only")

# Seconds of torch work that passes the size checks once the cost limit is raised (as these tests do).
LONG_STEP = "with torch.no_grad():\n" + "\n".join("    y = torch.ones(2000, 2000) @ torch.ones(2000, 2000)"
                                                   for _ in range(80))


@pytest.fixture
def patient(qtbot, settings):
    win = build_window(settings, limits=replace(DEFAULT_LIMITS, max_cost=10**13))
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()


def _worker_pid(win):
    return win.controller._worker.player.engine.pid


def test_a_crash_in_torch_costs_a_message_not_the_window(patient, qtbot):
    for _ in range(2):
        qtbot.keyClick(patient, Qt.Key.Key_Right)
        idle(qtbot, patient)
    old = _worker_pid(patient)
    os.kill(old, signal.SIGSEGV)  # as a segfault inside torch would
    qtbot.keyClick(patient, Qt.Key.Key_Right)
    idle(qtbot, patient)
    text = patient.output_view.toPlainText()
    assert "stopped the worker: PyTorch crashed" in text and "restarted at step 2" in text
    assert patient.position_label.text().startswith("2 /")
    assert _worker_pid(patient) != old
    qtbot.keyClick(patient, Qt.Key.Key_Right)
    idle(qtbot, patient)
    assert patient.position_label.text().startswith("3 /")


def test_escape_stops_a_long_step_and_a_fresh_worker_takes_over(patient, qtbot):
    patient.open_lesson(None)
    idle(qtbot, patient)
    patient.controller.submit("x = torch.ones(3)")
    idle(qtbot, patient)
    patient.controller.submit(LONG_STEP)
    qtbot.wait(300)
    assert patient.controller.busy
    before = _worker_pid(patient)
    qtbot.keyClick(patient, Qt.Key.Key_Escape)
    # A generous watchdog, not a timing: how fast it stops is benchmarks/stops.py's figure.
    qtbot.waitUntil(lambda: not patient.controller.busy, timeout=10_000)
    assert _worker_pid(patient) != before  # the running step's worker was ended; a fresh one took over
    assert patient.position_label.text() == "1 / 2"
    assert "restarted at step 1" in patient.output_view.toPlainText()


def test_closing_the_window_mid_step_ends_its_worker(qtbot, settings):
    win = build_window(settings, limits=replace(DEFAULT_LIMITS, max_cost=10**13))
    win.show()
    win.open_lesson(None)
    idle(qtbot, win)
    win.controller.submit(LONG_STEP)
    qtbot.wait(300)
    pid = _worker_pid(win)
    win.close()
    assert not win.isVisible() and win.controller._closed
    with pytest.raises(ProcessLookupError):   # gone (a watchdog of 10 s, not a timing)
        for _ in range(500):
            os.kill(pid, 0)
            time.sleep(0.02)


def test_work_that_takes_a_while_shows_progress_and_disables_the_controls(patient, qtbot):
    from tensorlab.ui.window.main_window import BUSY_AFTER_MS

    patient.open_lesson(None)
    idle(qtbot, patient)
    patient.controller.submit("x = torch.ones(3)")
    idle(qtbot, patient)
    # A quick step: no busy look at all (nothing flickers, nothing is laid out twice).
    patient.controller.submit("y = x + 1")
    assert patient.controller.busy and not patient.busy_bar.isVisible()
    idle(qtbot, patient)
    assert not patient.busy_bar.isVisible() and patient.commands.step_back.isEnabled()
    # A long one: after a moment, the bar, Cancel, and controls that cannot be used meanwhile.
    patient.controller.submit(LONG_STEP)
    qtbot.wait(BUSY_AFTER_MS + 150)
    assert patient.busy_bar.isVisible() and patient.cancel_button.isVisible()
    assert not patient.commands.step_back.isEnabled() and not patient.builders.create.button.isEnabled()
    patient.controller.cancel()
    qtbot.waitUntil(lambda: not patient.controller.busy, timeout=5_000)
    assert not patient.busy_bar.isVisible() and patient.commands.step_back.isEnabled()
