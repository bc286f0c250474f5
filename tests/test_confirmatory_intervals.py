"""Issue 46 req 4: one bootstrap distribution gives each comparison its interval and its p, so they agree.

A 90% interval (the one-sided tests' 1 − 2α, α = 0.05) excludes 0 exactly when a one-sided p is below 0.05.
The pages printed SentEvalSTS16 as +13.0 [+0.8, +33.6] with p = 0.123: a percentile interval beside a
t-referenced p.  Checked over seeds on simulated lineages, and on the committed pages as printed.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.metrics.confirmatory import better_than_all, mean_tests

DOCS = Path(__file__).resolve().parents[1] / "docs" / "study"
ALPHA = 0.05


def _population(seed: int, n_lineages: int = 9):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 6, n_lineages)
    lineages = np.repeat(np.arange(n_lineages), sizes)
    shared = rng.normal(size=n_lineages)[lineages]
    y = shared + rng.normal(scale=0.5, size=len(lineages))
    claim = y + rng.normal(scale=rng.uniform(0.3, 1.5), size=len(y))
    baselines = {f"b{k}": y + rng.normal(scale=rng.uniform(0.3, 1.5), size=len(y)) for k in range(3)}
    return claim, baselines, y, [f"L{i}" for i in lineages]


@pytest.mark.parametrize("seed", range(12))
def test_interval_excludes_zero_iff_one_sided_p_below_alpha(seed):
    claim, baselines, y, lineages = _population(seed)
    test = better_than_all(
        claim, baselines, y, lineages, alpha=ALPHA, n_resamples=400, seed=seed, simulate_growth=False
    )
    for c in test.contrasts:
        assert (c.ci_low > 0) == (c.p_better < ALPHA), c
        assert (c.ci_high < 0) == (c.p_worse < ALPHA), c
        assert c.ci_low <= c.difference <= c.ci_high
    values = np.asarray(claim) - np.asarray(y) + 0.1 * seed
    m = mean_tests(values, lineages, margin=1.0, alpha=ALPHA, n_resamples=400, seed=seed)
    assert (m.ci_low > 0) == (m.p_positive < ALPHA)
    assert (m.ci_high < 0) == (m.p_not_positive < ALPHA)
    assert (m.ci_low > -1.0 and m.ci_high < 1.0) == (m.p_equivalent < ALPHA)  # TOST = interval inside ±margin


#: "(+13.0 [+0.8, +33.6], p = 0.123)" as the Findings print each baseline's difference
CONTRAST = re.compile(r"\(([+-][\d.]+) \[([+-][\d.]+), ([+-][\d.]+)\], p (=|<|>) ([\d.]+)\)")


@pytest.mark.parametrize("page", ["study.md", "word_level.md"])
def test_the_committed_pages_print_intervals_that_agree_with_their_p(page):
    findings = (DOCS / page).read_text(encoding="utf-8").split("## Findings", 1)[1].split("### Second", 1)[0]
    found = CONTRAST.findall(findings)
    assert len(found) >= 17  # 8 sentence and 9 word baselines
    for diff, low, high, op, p in found:
        p_value = float(p) if op == "=" else (0.0 if op == "<" else 1.0)
        assert float(low) <= float(diff) <= float(high)
        assert (float(low) > 0) == (p_value < ALPHA), (diff, low, high, op, p)
