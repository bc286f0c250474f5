"""``ranks.png`` (EvalRank Figure 4, :func:`plot_ranks`): the title fits, and no series hides another (issue 19)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


def _draw(monkeypatch, tmp_path, n: int, intrinsic: dict[str, np.ndarray], downstream: np.ndarray):
    import matplotlib.pyplot as plt

    from mteb_evalrank.reports.correlation_figures import plot_ranks

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
    fig = _draw(
        monkeypatch, tmp_path, n, {"EvalRankSent": same, "SentEvalSTSB": same.copy(), "HEROS": same * 2}, rng.random(n)
    )
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


def test_figure_4_panels_for_64_models_in_14_families(monkeypatch, tmp_path):
    """``ranks.png`` of the study (:func:`plot_rank_panels`): one panel per score, every model a dot at (its MR
    rank, its rank under the score), the panel title's ρ equal to scipy's, and one legend entry per family."""
    import matplotlib.pyplot as plt
    from scipy.stats import spearmanr

    from mteb_evalrank.reports.rank_panels import plot_rank_panels

    n, rng = 64, np.random.default_rng(4)
    models = [f"zoo/m{i}__v" for i in range(n)]
    families = {m: f"family-{i % 14:02d}" for i, m in enumerate(models)}
    mr = rng.random(n)
    scores = pd.DataFrame(
        {
            "SentEvalMR": mr,
            "SentEvalSST2": mr + 0.1 * rng.random(n),
            "EvalRankSent": rng.random(n),
            "SentEvalSTSB": rng.random(n),
            "STR": rng.random(n),
        },
        index=models,
    )
    scores.loc[models[0], "STR"] = np.nan  # a model without one score drops out of that panel only
    kept = []
    monkeypatch.setattr(plt, "close", lambda fig=None: kept.append(fig))
    path = plot_rank_panels(
        scores,
        "SentEvalMR",
        ["SentEvalSST2", "EvalRankSent", "SentEvalSTSB", "STR", "absent"],
        families,
        tmp_path / "ranks.png",
    )
    assert path.read_bytes()[:4] == b"\x89PNG"
    (fig,) = kept
    panels = [ax for ax in fig.axes if ax.collections]
    assert [ax.get_title().splitlines()[0] for ax in panels] == ["SentEvalSST2", "EvalRankSent", "SentEvalSTSB", "STR"]
    for ax, score in zip(panels, ["SentEvalSST2", "EvalRankSent", "SentEvalSTSB", "STR"]):
        part = scores[["SentEvalMR", score]].dropna()
        dots = np.concatenate([c.get_offsets() for c in ax.collections])
        assert len(dots) == len(part) and sorted(dots[:, 0]) == list(range(1, len(part) + 1))
        rho = 100 * spearmanr(part["SentEvalMR"], part[score]).statistic
        assert f"ρ = {rho:.0f}," in ax.get_title() and f"n = {len(part)}, 14 families" in ax.get_title()
    legend = next(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)
    assert sorted(t.get_text() for t in legend.get_texts()) == sorted(set(families.values()))


def test_figure_4_panels_need_the_pivot(tmp_path):
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.reports.rank_panels import plot_rank_panels

    scores = pd.DataFrame({"SentEvalSST2": [1.0, 2.0]}, index=["a", "b"])
    with pytest.raises(InputError, match="no model has the pivot score 'SentEvalMR'"):
        plot_rank_panels(scores, "SentEvalMR", ["SentEvalSST2"], {}, tmp_path / "r.png")
