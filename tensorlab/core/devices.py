"""Which devices exist on this machine, and checking a user's choice of one."""

from __future__ import annotations

import torch

__all__ = ["DeviceError", "available_devices", "resolve_device"]


class DeviceError(ValueError):
    """The requested device does not exist here."""


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
    """Canonical name of ``name`` (`cuda` -> `cuda:0`), or :class:`DeviceError`."""
    text = str(name).strip().lower()
    try:
        device = torch.device(text)
    except (RuntimeError, ValueError):
        raise DeviceError(f"`{name}` is not a device name (try cpu, cuda:0 or mps)") from None
    canonical = str(device)
    if device.type in ("cuda", "mps") and device.index is None:
        canonical = f"{device.type}:0" if device.type == "cuda" else "mps"
    if device.type == "mps" and device.index not in (None, 0):
        canonical = f"mps:{device.index}"
    present = available_devices()
    if canonical not in present:
        raise DeviceError(
            f"device `{name}` is not available here; this machine has: {', '.join(present)}"
        )
    return canonical
