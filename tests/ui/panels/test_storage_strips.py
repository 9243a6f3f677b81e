"""What the storage map draws: a tensor's band over the cells of the memory it views."""

from __future__ import annotations

from tensorlab.core.session.session import Session
from tensorlab.ui.panels.storage_strips import strip_models


def test_a_storage_that_starts_inside_the_memory_is_drawn_where_its_bytes_are():
    # y's storage object starts 4 bytes into x's memory: its storage_offset (torch's) is 0, its band
    # covers x's cells 1 to 3.
    session = Session()
    session.run("x = torch.arange(4.0)")
    snapshot = session.run("y = torch.from_numpy(x[1:].numpy())").snapshot
    (strip,) = strip_models(snapshot, snapshot)
    bands = {band.name: band.cells for band in strip.bands}
    assert bands == {"x": (0, 1, 2, 3), "y": (1, 2, 3)}
    assert strip.values == (0.0, 1.0, 2.0, 3.0)
    snapshot = session.run("z = torch.view_as_real(torch.from_numpy(x.numpy()[2:]).to(torch.complex64))").snapshot
    assert snapshot.tensor("z").storage != snapshot.tensor("x").storage   # .to() copied: new memory
