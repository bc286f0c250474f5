"""``ranks.png`` (EvalRank Figure 4, :func:`plot_ranks`): the title fits, and no series hides another (issue 19)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


def _draw(monkeypatch, tmp_path, n: int, intrinsic: dict[str, np.ndarray], downstream: np.ndarray):
    import matplotlib.pyplot as plt

    from mteb_evalrank.reports.correlation_study import plot_ranks

    scores = pd.DataFrame({"SentEvalMR": downstream, **intrinsic}, index=[f"zoo/model-{i}__variant" for i in range(n)])
    kept = []
    monkeypatch.setattr(plt, "close", lambda fig=None: kept.append(fig))  # keep the figure save_figure closes
    path = plot_ranks(scores, "SentEvalMR", list(intrinsic), tmp_path / "ranks.png")
    assert path.read_bytes()[:4] == b"\x89PNG"
    return kept[0]


@pytest.mark.parametrize("n", [3, 12, 60])
def test_title_lies_inside_the_figure(monkeypatch, tmp_path, n):
    rng = np.random.default_rng(n)
    fig = _draw(monkeypatch, tmp_path, n, {"EvalRankSent": rng.random(n), "SentEvalSTSB": rng.random(n)}, rng.random(n))
    renderer = fig.canvas.get_renderer()
    title = fig.axes[0].title
    box, page = title.get_window_extent(renderer), fig.bbox
    assert box.x0 >= page.x0 and box.x1 <= page.x1, (title.get_text(), box, page)
    assert "(dots on the line = yes)" in title.get_text()


def test_scores_with_identical_ranks_stay_visible(monkeypatch, tmp_path):
    """Two intrinsic scores that rank every model alike: each series' markers are at their own positions."""
    n = 12
    rng = np.random.default_rng(0)
    same = rng.random(n)
    fig = _draw(monkeypatch, tmp_path, n, {"EvalRankSent": same, "SentEvalSTSB": same.copy(), "HEROS": same * 2},
                rng.random(n))  # fmt: skip
    ax = fig.axes[0]
    series = {c.get_label(): c.get_offsets() for c in ax.collections}
    assert set(series) == {"EvalRankSent", "SentEvalSTSB", "HEROS"}
    points = [tuple(np.round(p, 6)) for offsets in series.values() for p in np.asarray(offsets)]
    assert len(points) == 3 * n and len(set(points)) == 3 * n  # no marker on top of another
    xs = {label: np.asarray(offsets)[:, 0] for label, offsets in series.items()}
    ys = {label: np.asarray(offsets)[:, 1] for label, offsets in series.items()}
    assert np.array_equal(ys["EvalRankSent"], ys["SentEvalSTSB"]) and np.array_equal(ys["SentEvalSTSB"], ys["HEROS"])
    gaps = np.abs(xs["EvalRankSent"] - xs["SentEvalSTSB"])
    assert np.all(gaps > 0.1) and np.all(np.abs(xs["EvalRankSent"] - np.round(xs["EvalRankSent"])) <= 0.3)
