"""Fixes for issue 47's held-out sweep (tests/sweeps/sweep_holdout47.py), each by a rule in one place."""

from __future__ import annotations

import pytest

from mteb_evalrank.errors import DataNotFoundError


def test_task_data_that_cannot_be_fetched_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    """``datasets`` raises ``ConnectionError`` for MTEB's own tasks offline (holdout47 run-tasks-mteb-task-offline)."""
    import mteb

    from mteb_evalrank.integration.run import run

    def offline(*args, **kwargs):
        raise ConnectionError("Couldn't reach 'mteb/sts12-sts' on the Hub (OfflineModeIsEnabled)")

    monkeypatch.setattr(mteb, "evaluate", offline)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = tmp_path / "vec.txt"
    vectors.write_text("cat 0.1 0.2\ndog 0.3 0.4\n")
    with pytest.raises(
        DataNotFoundError, match=r"the data of STS12 cannot be loaded \(Couldn't reach .*HF_HUB_OFFLINE"
    ):
        run(["STS12"], str(vectors), tmp_path / "out", verbose=False)
