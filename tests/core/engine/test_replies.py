"""The worker's reply kinds and the step origins are str enums: the texts on the wire and in files stay."""

from __future__ import annotations

import pytest

from tensorlab.core.engine.player import StepOrigin
from tensorlab.core.protocol.engine_api import Cancelled, Reply
from tensorlab.core.protocol.wire import InfoReceiver, InfoSender, WireError


def test_the_reply_kinds_are_the_texts_every_release_sent():
    assert [r.value for r in Reply] == ["ready", "progress", "ok", "failed", "cancelled", "baddevice", "died"]
    assert Reply.OK == "ok" and "cancelled" == Reply.CANCELLED and str(Cancelled()) == "cancelled"
    assert [o.value for o in StepOrigin] == ["lesson", "user"] and StepOrigin("user") is StepOrigin.USER


def test_a_reply_crosses_the_wire_as_plain_text():
    # The window's unpickler reads plain values only: the worker sends ``kind.value``.
    kind, payload = InfoReceiver().loads(InfoSender().dumps((Reply.OK.value, 3)))
    assert kind == Reply.OK and type(kind) is str and payload == 3
    with pytest.raises(WireError):
        InfoReceiver().loads(InfoSender().dumps((Reply.OK, 3)))
