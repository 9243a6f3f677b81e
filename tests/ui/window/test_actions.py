"""The window's actions are data: one table, one typed object, no two sharing a name or a key."""

from __future__ import annotations

from dataclasses import fields

from PySide6.QtGui import QAction, QKeySequence

from tensorlab.ui.window.actions import ACTIONS, CHOICE_KEYS, MENUS, ActionSpec, WindowActions, key_sequences


def shared(specs: list[ActionSpec]) -> list[str]:
    """What two of ``specs`` share: a name, an object name or a key (the digit keys of the choices included)."""
    problems, names, objects, keys = [], {}, {}, {}
    for spec in specs:
        for seen, value, what in ((names, spec.name, "name"), (objects, spec.object_name, "object name")):
            if value in seen:
                problems.append(f"{what} {value!r}: {seen[value]} and {spec.name}")
            seen[value] = spec.name
        for sequence in key_sequences(spec.shortcuts):
            key = sequence.toString(QKeySequence.SequenceFormat.PortableText)
            if key in keys:
                problems.append(f"key {key}: {keys[key]} and {spec.name}")
            keys[key] = spec.name
    for digit in CHOICE_KEYS:
        if digit in keys:
            problems.append(f"key {digit}: {keys[digit]} and choosing an answer")
    return problems


def test_no_two_actions_share_a_name_or_a_key(qapp):   # standard keys are read from the platform
    assert shared(list(ACTIONS)) == []


def test_the_check_fails_when_two_actions_share_a_key(qapp):
    twin = ActionSpec("step_twice", "Step twice", "stepTwiceAction", ("Space",), lambda w: w.step_forward())
    assert shared([*ACTIONS, twin]) == ["key Space: step_forward and step_twice"]
    digit = ActionSpec("first", "First", "firstAction", ("1",), lambda w: w.step_forward())
    assert shared([*ACTIONS, digit]) == ["key 1: first and choosing an answer"]


def menu_names() -> list[str]:
    """Every name :data:`MENUS` places, a submenu's included."""
    names: list[str] = []
    for _title, entries in MENUS:
        for entry in entries:
            if isinstance(entry, tuple):
                names.extend(entry[1])
            elif entry is not None:
                names.append(entry)
    return names


def test_every_action_has_its_typed_field_and_every_menu_entry_is_an_action():
    assert [f.name for f in fields(WindowActions) if f.name != "choices"] == [s.name for s in ACTIONS]
    named = {s.name for s in ACTIONS} | {"docks", "export"}
    assert [n for n in menu_names() if n not in named] == []


def test_every_action_is_in_a_menu_once():
    # A key no menu shows is a key nobody finds (the projector tabs' Ctrl+1-5 were once in none).
    placed = menu_names()
    assert sorted(s.name for s in ACTIONS if placed.count(s.name) != 1) == []


def test_the_view_menu_brings_each_projector_tab_forward_with_its_key(window):
    view = window.view_menu
    submenus = [a.menu() for a in view.actions() if a.menu() is not None]
    assert len(submenus) == 1
    keys = {a.objectName(): a.shortcut().toString(QKeySequence.SequenceFormat.PortableText)
            for a in submenus[0].actions()}
    assert keys == {"showNarrationAction": "Ctrl+1", "showTensorsAction": "Ctrl+2", "showValuesAction": "Ctrl+3",
                    "showGraphAction": "Ctrl+4", "showBuildAction": "Ctrl+5"}


def test_the_built_window_has_one_action_per_spec_and_no_key_twice(window):
    actions = window.commands
    for spec in ACTIONS:
        action = actions.named(spec.name)
        assert isinstance(action, QAction) and action.objectName() == spec.object_name
        assert action.isCheckable() == spec.checkable
        assert action.shortcuts() == key_sequences(spec.shortcuts)
    assert [a.shortcut().toString() for a in actions.choices] == list(CHOICE_KEYS)
    # Every action on the window, the Export menu's included: each key calls one of them only.
    owner: dict[str, str] = {}
    for action in window.actions():
        for sequence in action.shortcuts():
            key = sequence.toString(QKeySequence.SequenceFormat.PortableText)
            assert key not in owner, f"{key}: {owner[key]} and {action.objectName()}"
            owner[key] = action.objectName()
    assert owner["Right"] == "stepForwardAction" and owner["Ctrl+E"] == "exportScriptAction"
