"""Device names (`cpu`, `cuda:N`, `mps`): a user's choice read and written canonically, without torch.

Which devices this machine has is asked of torch on the worker side
(:mod:`tensorlab.core.session.devices`).
"""

from __future__ import annotations

import re

from tensorlab.core.messages.catalogue import MessageError, msg

__all__ = ["DeviceError", "canonical_device"]

_NAME = re.compile(r"^(cpu|cuda|mps)(?::(\d+))?$")


class DeviceError(MessageError, ValueError):
    """The requested device does not exist here."""


def canonical_device(name: str) -> str:
    """Canonical spelling of ``name`` (`cuda` -> `cuda:0`, `CPU` -> `cpu`), or DeviceError."""
    text = str(name).strip().lower()
    match = _NAME.match(text)
    if match is None:
        raise DeviceError(msg("engine.bad_device", name=name))
    kind, index = match.group(1), match.group(2)
    if kind == "cpu":
        return "cpu"
    if kind == "cuda":
        return f"cuda:{int(index or 0)}"
    return "mps" if index in (None, "0") else f"mps:{int(index)}"
