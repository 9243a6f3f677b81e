"""The code line completes the names contract 3 gives tensors inside containers and modules (issue #16)."""

from __future__ import annotations

from tensorlab.ui.builders.code_line import CodeLineEdit


def test_the_code_line_completes_parts_keys_and_parameters(qtbot):
    line = CodeLineEdit()
    qtbot.addWidget(line)
    line.names = ("x", "parts", "sd", "net")
    line.rows = ("parts[0]", "parts[1]", "sd['weight']", "net[0].weight", "net[0].bias")
    assert "parts[0]" in line.candidates("par") and "parts" in line.candidates("par")
    assert line.candidates("parts[") == ["parts[0]", "parts[1]"]
    assert line.candidates("sd[") == ["sd['weight']"]
    assert line.candidates("net[0].") [:2] == ["net[0].weight", "net[0].bias"]
    assert line.token("y = parts[").group(0) == "parts["
    assert line.token("y = l[x").group(0) == "x"     # not a row: the plain name before the cursor
    line.setText("y = parts[")
    line.setCursorPosition(len(line.text()))
    line.insert_completion("parts[1]")
    assert line.text() == "y = parts[1]"
