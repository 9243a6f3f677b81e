"""Kept history within its share of the budget: old snapshots lose their values, the last ones stay whole."""

from __future__ import annotations

from tensorlab.core.protocol.history import (
    HISTORY_CEILING,
    KEEP_LAST,
    History,
    history_allowance,
    own_bytes,
    without_values,
)
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.core.worker.in_process import LocalEngine

SMALL = DEFAULT_LIMITS.with_memory(16 * 1024**2)   # 1 MB of history: two snapshots of 10,000 values


def _results(steps: int):
    engine = LocalEngine(limits=DEFAULT_LIMITS)   # the default allowance keeps all of these whole
    engine.run("x = torch.zeros(10000)")
    engine.run("keep = torch.ones(3)")
    for _ in range(steps):
        engine.run("x.add_(1)")
    return list(engine.session.results)


def test_the_allowance_is_a_share_of_the_budget_with_a_ceiling():
    assert history_allowance(SMALL) == 1024**2
    assert history_allowance(DEFAULT_LIMITS.with_memory(64 * 1024**3)) == HISTORY_CEILING
    assert history_allowance(None) == HISTORY_CEILING


def test_old_snapshots_lose_their_values_and_the_last_ones_stay_whole():
    results = _results(10)
    whole = list(results)
    history = History(history_allowance(SMALL))
    trimmed = history.trim(results)
    assert trimmed > 0 and history.trimmed_steps == trimmed
    assert all(r.snapshot.trimmed for r in results[:trimmed])
    assert not any(r.snapshot.trimmed for r in results[trimmed:])
    assert len(results) - trimmed >= KEEP_LAST
    assert history.held <= history.allowance
    for old, new in zip(whole, results):
        # Everything but the values is kept: names, shapes, versions, storage labels.
        assert new.snapshot.names == old.snapshot.names and new.code == old.code
        for a, b in zip(old.snapshot.tensors, new.snapshot.tensors):
            assert (a.shape, a.version, a.storage, a.dtype) == (b.shape, b.version, b.storage, b.dtype)
        if new.snapshot.trimmed:
            assert all(t.values is None and t.grad is None for t in new.snapshot.tensors)
            assert all(s.cells == () for s in new.snapshot.storages)
        else:
            assert new is old


def test_trimming_again_costs_nothing_and_keeps_shared_parts_shared():
    results = _results(10)
    history = History(history_allowance(SMALL))
    history.trim(results)
    assert history.trim(results) == 0
    first, second = results[0].snapshot, results[1].snapshot
    # `keep` never changes after step 2: the trimmed copies share one copy of it, as the originals did.
    assert results[2].snapshot.tensor("keep") is results[3].snapshot.tensor("keep")
    assert first.trimmed and second.trimmed


def test_a_part_shared_with_the_snapshot_before_is_not_counted_twice():
    results = _results(2)
    later = results[-1].snapshot
    assert own_bytes(later, results[-2].snapshot) < own_bytes(later, None)
    assert without_values(without_values(later)) == without_values(later)


def test_the_worker_side_keeps_its_session_within_the_allowance_and_counts_it_in_the_budget():
    engine = LocalEngine(limits=SMALL)
    engine.run("x = torch.zeros(10000)")
    for _ in range(12):
        engine.run("x.add_(1)")
    kept = engine.session.results
    assert kept[0].snapshot.trimmed and not kept[-1].snapshot.trimmed
    assert engine.session.guard.outside == engine.history.held > 0
    assert engine.run("y = x + 0").memory >= engine.session.guard.outside


def test_two_histories_of_one_process_share_the_trimmed_copies():
    """The engine and the player keep the same results: trimmed, both lists hold the same copies (made once)."""
    results = _results(10)
    engine_side, player_side = list(results), list(results)
    History(history_allowance(SMALL)).trim(engine_side)
    History(history_allowance(SMALL)).trim(player_side)
    trimmed = [r for r in engine_side if r.snapshot.trimmed]
    assert trimmed and all(a is b for a, b in zip(engine_side, player_side))
