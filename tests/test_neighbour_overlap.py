"""RankEncoder Figure 6 table and plot (reports/neighbour_overlap.py) on synthetic pairs."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr

from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.neighbour_overlap import format_overlap_gain, overlap_gain_table, plot_overlap_gain


def _synthetic(n=300, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.uniform(0, 5, n)
    base = gold / 5 + rng.normal(0, 0.3, n)
    # the "new" system is exact on the pairs the base finds most similar, equal to the base elsewhere
    new = np.where(base > np.quantile(base, 0.8), gold / 5, base)
    overlap = np.clip(base, 0, 1)
    return gold, base, new, overlap


def test_groups_are_base_cosine_quantiles_with_gain_where_the_new_system_differs():
    gold, base, new, overlap = _synthetic()
    rows = overlap_gain_table(gold, base, new, overlap, n_groups=5)
    assert [r["n_pairs"] for r in rows] == [60] * 5
    assert all(a["cos_high"] <= b["cos_low"] for a, b in zip(rows, rows[1:]))
    top = np.argsort(base, kind="stable")[-60:]
    assert rows[-1]["base"] == pytest.approx(spearmanr(base[top], gold[top]).statistic)
    assert rows[-1]["new"] == pytest.approx(1.0) and rows[-1]["gain"] > 0
    assert all(r["gain"] == pytest.approx(0.0) for r in rows[:3])  # identical systems there
    assert rows[-1]["mean_overlap"] == pytest.approx(overlap[top].mean())
    text = format_overlap_gain(rows, k=100, base="base", new="new")
    assert text.count("\n") == 6 and "shared top-100 neighbours" in text


def test_plot_is_written(tmp_path):
    gold, base, new, overlap = _synthetic()
    path = plot_overlap_gain(
        overlap_gain_table(gold, base, new, overlap), tmp_path / "fig" / "gain.png", k=100, base="base", new="new"
    )
    assert path.is_file() and path.stat().st_size > 10_000


def test_bad_input():
    gold, base, new, overlap = _synthetic(n=20)
    with pytest.raises(InputError, match="aligned"):
        overlap_gain_table(gold, base[:-1], new, overlap)
    with pytest.raises(InputError, match="too few"):
        overlap_gain_table(gold, base, new, overlap, n_groups=10)
