"""The Measure and Copy matrix docks come back as you left them (issue 17, item 7)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QPoint, QRect, QSettings
from PySide6.QtWidgets import QDockWidget, QScrollArea

from tensorlab.ui.widgets import i18n
from tensorlab.ui.widgets.settings import LAYOUT_VERSION
from tensorlab.ui.window.build import build_window


def _window(qtbot, settings):
    window = build_window(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(250)    # the restored floating tools are brought back a moment after the window shows
    return window


def _dock(window, name: str) -> QDockWidget:
    return window.findChild(QDockWidget, name)


def _on_screen(window, dock: QDockWidget) -> None:
    screen = window.screen().availableGeometry()
    assert screen.contains(dock.frameGeometry()), (dock.frameGeometry(), screen)


def test_a_tool_shown_first_floats_on_screen_sized_for_its_plot(qtbot, settings):
    window = _window(qtbot, settings)
    for name in ("measureDock", "copyMatrixDock"):
        dock = _dock(window, name)
        dock.toggleViewAction().trigger()
        assert dock.isVisible() and dock.isFloating() and dock.toggleViewAction().isChecked()
        _on_screen(window, dock)
        panel = dock.widget()
        inner = panel.widget() if isinstance(panel, QScrollArea) else panel
        screen = window.screen().availableGeometry()
        wanted = inner.sizeHint()
        assert dock.width() >= min(wanted.width(), screen.width() - 16)
        assert dock.height() >= min(wanted.height(), screen.height() - 48)
    # The plot shows, not hidden below the controls: most of it inside the tool's view, as it opens.
    panel = window.measure_panel
    plot = panel.tabs     # the plot's tab (the plot itself is made with the first measurement)
    viewport = panel.viewport()
    shown = viewport.rect().intersected(QRect(plot.mapTo(viewport, QPoint(0, 0)), plot.size()))
    assert plot.isVisible() and shown.height() >= max(200, 0.6 * plot.height()), (shown, plot.size())
    window.close()


def test_a_tool_placed_is_saved_with_the_layout_at_once_so_a_crash_keeps_both(qtbot, settings):
    """A session that does not quit cleanly (no close): the next one has the tool where it was, not docked
    in the narrow right column with its plot hidden."""
    first = _window(qtbot, settings)
    measure = _dock(first, "measureDock")
    measure.toggleViewAction().trigger()
    where = measure.geometry()
    # No close(): nothing more is saved. A second window reads the same settings.
    second = _window(qtbot, QSettings(settings.fileName(), QSettings.Format.IniFormat))
    again = _dock(second, "measureDock")
    # Floated over the window, it would cover the map: it comes back hidden, and View shows it where it was.
    assert again.isHidden() and not again.toggleViewAction().isChecked()
    again.toggleViewAction().trigger()
    assert again.isVisible() and again.isFloating() and again.toggleViewAction().isChecked()
    assert again.geometry() == where
    second.close()
    first.close()


def test_docks_come_back_where_they_were_after_a_clean_quit(qtbot, settings):
    first = _window(qtbot, settings)
    measure, matrix = _dock(first, "measureDock"), _dock(first, "copyMatrixDock")
    measure.toggleViewAction().trigger()
    measure.setGeometry(QRect(measure.x() + 10, measure.y() + 5, measure.width() - 40, measure.height() - 30))
    matrix.toggleViewAction().trigger()
    matrix.setFloating(False)                     # docked by the user: it stays docked
    qtbot.wait(20)
    places = {name: (dock.isFloating(), dock.isVisible(), dock.geometry() if dock.isFloating() else None,
                     first.dockWidgetArea(dock)) for name, dock in (("measureDock", measure),
                                                                      ("copyMatrixDock", matrix))}
    first.close()
    second = _window(qtbot, settings)
    # The floating Measure tool lay over the map: it comes back hidden (h17z item 7), the docked one shown.
    measure = _dock(second, "measureDock")
    assert measure.isHidden() and not measure.toggleViewAction().isChecked()
    measure.toggleViewAction().trigger()
    for name, (floating, visible, geometry, area) in places.items():
        dock = _dock(second, name)
        assert (dock.isFloating(), dock.isVisible(), second.dockWidgetArea(dock)) == (floating, visible, area), name
        assert dock.toggleViewAction().isChecked() == visible   # View says what is shown
        if geometry is not None:
            assert dock.geometry() == geometry, name
            _on_screen(second, dock)
    # One click of View → Measure hides it, the next shows it where it was (it is never checked and hidden).
    where = measure.geometry()
    measure.toggleViewAction().trigger()
    assert measure.isHidden()
    measure.toggleViewAction().trigger()
    assert measure.isVisible() and measure.isFloating() and measure.geometry() == where
    second.close()


def test_a_placed_flag_saved_without_its_layout_floats_the_tool_again(qtbot, settings):
    """What an older session that crashed left: the flag, and no layout."""
    settings.setValue("docks/measureDock/placed", "true")
    window = _window(qtbot, settings)
    measure = _dock(window, "measureDock")
    measure.toggleViewAction().trigger()
    assert measure.isVisible() and measure.isFloating()
    window.close()


def _status(window) -> str:
    return window.statusBar().currentMessage()


def _wait_for(qtbot, window, text: str) -> None:
    try:
        qtbot.waitUntil(lambda: text in _status(window), timeout=5_000)
    except Exception:
        raise AssertionError(f"status bar: {_status(window)!r}, notice: {window.layouts.reset_notice!r}") from None


def test_a_layout_saved_for_other_docks_resets_with_a_message_in_the_windows_language(qtbot, settings):
    first = _window(qtbot, settings)
    first.findChild(QDockWidget, "graphDock").toggleViewAction().trigger()    # the user's own arrangement
    first.close()
    key = f"layout/normal-v{LAYOUT_VERSION}"
    saved = settings.value(key)
    assert isinstance(saved, QByteArray)
    # A dock renamed since (as the panels will be): the saved state names one this window does not have.
    renamed = QByteArray(bytes(saved.data()).replace("codeDock".encode("utf-16-be"), "kodeDock".encode("utf-16-be")))
    settings.setValue(key, renamed)
    settings.setValue("session/language", "ko")
    second = _window(qtbot, settings)
    _wait_for(qtbot, second, "패널")
    assert "처음 자리로" in _status(second)
    assert not second.findChild(QDockWidget, "graphDock").isHidden()      # the default, not the saved one
    assert settings.value(key) != renamed
    second.close()
    i18n.set_language("en")


def test_a_layout_of_an_older_version_is_forgotten_with_a_message(qtbot, settings):
    settings.setValue(f"layout/normal-v{LAYOUT_VERSION - 1}", QByteArray(b"\x00\x00\x00\xff old state"))
    window = _window(qtbot, settings)
    _wait_for(qtbot, window, "panels changed")
    assert settings.value(f"layout/normal-v{LAYOUT_VERSION - 1}") is None
    window.close()
    again = _window(qtbot, settings)
    qtbot.wait(20)
    assert "panels changed" not in _status(again)     # said once
    again.close()


def _open_measure(window, qtbot):
    """The Measure tool opened from its View action, as a user opens it: its dock and its panel."""
    qtbot.addWidget(window)
    dock = _dock(window, "measureDock")
    dock.toggleViewAction().trigger()
    qtbot.waitUntil(dock.isVisible, timeout=5_000)
    qtbot.wait(50)
    return dock, window.measure_panel


def test_the_floating_measure_tool_shows_its_plot_whole_without_scrolling_at_1024x768(qtbot):
    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="inplace-on-a-leaf", size=(1024, 768)) as window:
        dock, panel = _open_measure(window, qtbot)
        # The column fits the tool: no scroll bar, the plot's tab whole inside the view.
        assert panel.widget().height() <= panel.viewport().height(), (panel.widget().size(), panel.viewport().size())
        tabs = panel.tabs.geometry()
        assert tabs.bottom() <= panel.viewport().height() and tabs.height() >= 220, tabs


def test_the_floating_copy_matrix_grows_to_show_its_last_column_once_computed(qtbot):
    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="inplace-on-a-leaf", size=(1024, 768)) as window:
        qtbot.addWidget(window)
        dock = _dock(window, "copyMatrixDock")
        dock.toggleViewAction().trigger()
        panel = dock.widget()
        qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=60_000)
        qtbot.wait(50)
        table = panel.table
        screen = window.screen().availableGeometry()
        last = table.horizontalHeader().sectionViewportPosition(table.model().columnCount() - 1) + \
            table.columnWidth(table.model().columnCount() - 1)
        # The "raises?" column shows whole, or the tool takes the screen's width and scrolls.
        assert last <= table.viewport().width() or dock.width() >= screen.width() - 16, (last, dock.width())
        assert dock.width() >= min(panel.sizeHint().width(), screen.width() - 16)
        assert panel.sizeHint().width() >= table.horizontalHeader().length()   # it asks for every column
        _on_screen(window, dock)


def test_a_floating_tool_opens_clear_of_another_and_sized_for_its_content():
    # Review r17 item 12: Copy matrix opened exactly over Measure, and at 1920x1080 a tool took ~90% of the window.
    from PySide6.QtCore import QSize

    from tensorlab.ui.tools.lab_docks import free_spot

    for width, height in ((1920, 1080), (2560, 1440)):
        screen = QRect(0, 0, width, height)
        frame = screen.adjusted(0, 30, 0, 0)
        measure = free_spot(QSize(694, 515), frame, screen, [])
        assert measure.size() == QSize(694, 515) and screen.contains(measure)
        assert measure.width() < 0.5 * frame.width()          # its content's size, not the window's
        copy = free_spot(QSize(980, 634), frame, screen, [measure])
        assert copy.size() == QSize(980, 634) and screen.contains(copy)
        assert not copy.intersects(measure), (copy, measure)
        # A third tool, clear of both where the screen has room for it.
        third = free_spot(QSize(400, 300), frame, screen, [measure, copy])
        assert screen.contains(third) and not third.intersects(measure) and not third.intersects(copy)
    # No room to be clear (1024x768): on the screen, covering the other as little as the candidates allow.
    screen = QRect(0, 0, 1024, 768)
    measure = free_spot(QSize(694, 515), screen, screen, [])
    copy = free_spot(QSize(980, 634), screen, screen, [measure])
    assert screen.contains(copy) and screen.contains(measure)
    overlap = copy.intersected(measure)
    centred = QRect(screen.center() - QPoint(490, 317), QSize(980, 634)).intersected(measure)   # (as it was)
    assert overlap.width() * overlap.height() < centred.width() * centred.height()


def test_copy_matrix_opens_clear_of_the_measure_tool_where_it_was_put(qtbot, settings):
    window = _window(qtbot, settings)
    measure, copy = _dock(window, "measureDock"), _dock(window, "copyMatrixDock")
    measure.toggleViewAction().trigger()
    assert measure.isFloating()
    screen = window.screen().availableGeometry()
    # Sized for its content, not for the window (the offscreen screen is 800x800, smaller than the window).
    panel = measure.widget()
    inner = panel.widget() if isinstance(panel, QScrollArea) else panel
    assert measure.width() <= max(inner.sizeHint().width() + 24, 560) and measure.height() < screen.height() - 48
    measure.setGeometry(QRect(screen.left() + 8, screen.top() + 32, 300, 200))   # the teacher put it there
    qtbot.wait(20)
    copy.toggleViewAction().trigger()
    assert copy.isVisible() and copy.isFloating()
    _on_screen(window, copy)
    assert not copy.frameGeometry().intersects(measure.frameGeometry()), (copy.frameGeometry(),
                                                                           measure.frameGeometry())
    window.close()


class _OnScreen:
    """The window as the lab docks see it, on a screen of another size (the offscreen one is 800x800)."""

    def __init__(self, window, screen: QRect) -> None:
        self._window, self._screen = window, screen

    def geometry(self) -> QRect:
        return QRect(self._screen.topLeft(), self._screen.size())

    def screen(self):
        screen = self._screen

        class _Screen:
            def availableGeometry(self) -> QRect:  # noqa: N802 - Qt's name
                return QRect(screen)

        return _Screen()

    def __getattr__(self, name):
        return getattr(self._window, name)


def test_on_a_1024x768_screen_copy_matrix_and_measure_never_overlap(qtbot):
    # Issue 17 (round 2): at 1024x768 Copy matrix opened over Measure (no spot was clear, and it took the one that
    # covered least): now beside it, the screen shared, each at least a readable size.
    from tensorlab.ui.tools import lab_docks
    from tensorlab.ui.tools.lab_docks import TOOL_MIN
    from tensorlab.ui.window.offscreen import isolated_window

    screen = QRect(0, 0, 1024, 768)
    with isolated_window(lesson="inplace-on-a-leaf", size=(1024, 768)) as window:
        qtbot.addWidget(window)
        measure, copy = _dock(window, "measureDock"), _dock(window, "copyMatrixDock")
        on_screen = _OnScreen(window, screen)
        measure.toggleViewAction().trigger()
        qtbot.waitUntil(measure.isVisible, timeout=5_000)
        lab_docks._float_over(on_screen, measure)    # where it opens on a 1024x768 screen
        copy.toggleViewAction().trigger()
        qtbot.waitUntil(copy.isVisible, timeout=5_000)
        lab_docks._float_over(on_screen, copy)
        # (Checked at once: a moment later the tool would grow for its rows on the real, 800x800, screen.)
        assert measure.isFloating() and copy.isFloating() and measure.isVisible() and copy.isVisible()
        assert not copy.frameGeometry().intersects(measure.frameGeometry()), (copy.frameGeometry(),
                                                                               measure.frameGeometry())
        for dock in (measure, copy):
            assert screen.contains(dock.frameGeometry()), dock.frameGeometry()
            assert dock.width() >= TOOL_MIN.width() and dock.height() >= TOOL_MIN.height(), dock.size()


def test_room_beside_and_halves_are_clear_of_each_other():
    from PySide6.QtCore import QSize

    from tensorlab.ui.tools.lab_docks import halves, room_beside

    screen = QRect(0, 0, 1024, 768)
    measure = QRect(322, 32, 694, 515)
    beside = room_beside(QSize(980, 634), screen, [measure])
    assert beside is None or not beside.intersects(measure)
    first, second = halves(screen, QSize(300, 300), QSize(551, 424))
    assert not first.intersects(second) and screen.contains(first) and screen.contains(second)
    assert first.width() >= 300 and second.width() >= 551
    assert halves(QRect(0, 0, 800, 800), QSize(400, 400), QSize(551, 424)) is None
    small = QRect(700, 32, 316, 300)
    beside = room_beside(QSize(600, 500), screen, [small])
    assert beside is not None and not beside.intersects(small) and screen.contains(beside)


def test_the_floating_measure_tool_gives_its_plot_a_good_share_of_the_screen(qtbot):
    """Review r17o item 7: the Measure plot was small (190 px of a 515 px tool at 1024x768): its tabs ask for
    about 42% of the screen's height, and the tool still fits the screen with no scroll bar."""
    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="inplace-on-a-leaf", size=(1024, 768)) as window:
        dock, panel = _open_measure(window, qtbot)
        screen = window.screen().availableGeometry()
        _on_screen(window, dock)
        assert panel.widget().height() <= panel.viewport().height(), (panel.widget().size(), panel.viewport().size())
        assert panel.tabs.height() >= 0.38 * screen.height(), (panel.tabs.size(), screen)


def test_a_launch_into_a_lesson_never_opens_a_floating_tool_over_the_map(qtbot, settings):
    """Seen under X (relu-inplace at 1024x768, a settings folder other runs had used): the Measure tool, floating
    when the last session closed, opened over the map and the question. It comes back hidden where it would cover
    the map, the status bar says how to bring it back, and View shows it where it was."""
    first = _window(qtbot, settings)
    first.resize(1024, 768)
    measure = _dock(first, "measureDock")
    measure.toggleViewAction().trigger()
    assert measure.isFloating() and measure.isVisible()
    where = measure.geometry()
    first.close()   # a clean quit, the tool floating
    settings.setValue("session/lesson", "relu-inplace")
    second = _window(qtbot, settings)
    second.resize(1024, 768)
    qtbot.wait(50)
    view = second.storage_map
    stage = QRect(view.mapToGlobal(QPoint(0, 0)), view.size())
    for dock in second.findChildren(QDockWidget):
        if dock.isFloating() and dock.isVisible():
            assert not dock.frameGeometry().intersects(stage), (dock.objectName(), dock.frameGeometry(), stage)
    again = _dock(second, "measureDock")
    assert again.isHidden() and not again.toggleViewAction().isChecked()
    assert "Measure" in second.statusBar().currentMessage() and "View" in second.statusBar().currentMessage()
    again.toggleViewAction().trigger()
    assert again.isVisible() and again.isFloating() and again.geometry() == where
    second.close()
