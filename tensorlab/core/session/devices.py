"""Which devices this machine has, asked of torch (the worker side; the names alone are in protocol.device_names)."""

from __future__ import annotations

import torch

from tensorlab.core.messages.catalogue import msg
from tensorlab.core.protocol.device_names import DeviceError, canonical_device

__all__ = ["available_devices", "resolve_device"]


def available_devices() -> list[str]:
    """The devices a session can use here: always `cpu`, then `cuda:N`, then `mps`."""
    devices = ["cpu"]
    if torch.cuda.is_available():
        devices += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        devices.append("mps")
    return devices


def resolve_device(name: str) -> str:
    """Canonical name of ``name`` (`cuda` -> `cuda:0`), or :class:`DeviceError` if it is not here."""
    canonical = canonical_device(name)
    present = available_devices()
    if canonical not in present:
        raise DeviceError(msg("engine.no_device", name=name, present=", ".join(present)))
    return canonical
