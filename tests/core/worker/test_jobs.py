"""The worker's jobs: an unknown name is refused in the catalogue's words."""

from __future__ import annotations

import pytest


def test_an_unknown_job_is_named_in_the_catalogues_words():
    from tensorlab.core.worker.jobs import UnknownJob, run_job

    with pytest.raises(KeyError) as caught:
        run_job("nothing-here", None, {}, lambda: False, lambda done, total: None)
    assert isinstance(caught.value, UnknownJob)
    assert str(caught.value) == "TensorLab's worker has no job named `nothing-here`"
    assert "작업이 없습니다" in caught.value.render("ko")
