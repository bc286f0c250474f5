"""Issue 46 req 3: the power planner (``study --models FILE --plan``) and the registry's lineage count.

The planner draws populations of the list's lineage count from the committed study's lineages
(``data/study_populations/committed_study.csv``, derived from ``docs/study``); at the committed study's own
count and seed it must print the page's own MDD and "lineages in all", and it must load no model.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_shipped_table_is_derived_from_the_committed_study():
    """``committed_study.csv`` equals :func:`committed_study_table` of ``docs/study`` (regenerate it with
    ``write_committed_table`` when the study changes), and it holds only confirmatory models."""
    from mteb_evalrank.reports.study_plan import COMMITTED_TABLE, committed_study_table

    derived = committed_study_table(DOCS / "study")
    shipped = pd.read_csv(COMMITTED_TABLE)
    assert list(shipped.columns) == list(derived.columns)
    pd.testing.assert_frame_equal(shipped, derived, check_exact=False, atol=1e-6, check_dtype=False)
    pop = pd.read_csv(DOCS / "study" / "population.csv", index_col="model")
    sentence = shipped[shipped["level"] == "sentence"]
    assert not pop.loc[sentence["model"], "floor"].any() and not pop.loc[sentence["model"], "left_out"].any()
    assert COMMITTED_TABLE.stat().st_size < 50_000


def _page_power(page: str) -> tuple[float, int]:
    """The sentence claim's MDD and "(N in all)" as printed on a committed page."""
    text = (DOCS / "study" / page).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("- **EvalRank (sentence)"))
    mdd = float(re.search(r"Holm's first step across the 3 claims\): ([\d.]+) ρ points", line).group(1))
    total = int(re.search(r"\((\d+) in all\)", line).group(1))
    return mdd, total


def test_the_plan_at_the_committed_count_is_the_pages_own_power():
    """At the committed study's 13 lineages, its seed and level (α/3), the planner's expected MDD and lineages
    needed are the figures the page prints (the same draws), so the plan extends the page, not another model."""
    from mteb_evalrank.metrics.confirmatory import plan_power
    from mteb_evalrank.reports.study_plan import level_data

    data = level_data("sentence")
    assert len(set(data.clusters)) == 13 and len(data.baselines) == 8
    p = plan_power(data, 13, 0.05 / 3, n_resamples=2000, seed=0)
    mdd, total = _page_power("study.md")
    assert round(p.mdd, 1) == mdd
    assert p.lineages_needed == total
    bigger = plan_power(data, 60, 0.05 / 3, n_resamples=500, seed=0)
    assert bigger.mdd < p.mdd and bigger.power_at_target > p.power_at_target  # more lineages, more power


def test_plan_loads_no_model(monkeypatch, capsys):
    """``study --models hub --plan`` prints the plan and the cost without loading or resolving a model."""
    import mteb

    from mteb_evalrank.cli import main
    from mteb_evalrank.integration import model_list

    def refuse(*args, **kwargs):
        raise AssertionError("the planner loaded or resolved a model")

    monkeypatch.setattr(mteb, "get_model", refuse)
    monkeypatch.setattr(model_list, "resolve_rows", refuse)
    monkeypatch.setattr(model_list, "run_model_list", refuse)
    assert main(["study", "--models", "hub", "--plan"]) == 0
    out = capsys.readouterr().out
    assert "100 models, 0 random floors, 42 lineages (no model loaded)" in out
    assert re.search(r"one claim\), α = 0\.05: expected MDD \(80% power\) [\d.]+ ρ points", out)
    assert re.search(r"Holm's first step across its 3 claims\), α = 0\.01667: expected MDD", out)
    assert re.search(r"power \d+% at \+10; \d+% at \+19\.4 \(the largest attainable advantage\)", out)
    assert "such lineages would give 80% power at +10" in out
    assert "cost: about 23.6 GPU-hours for 100 models" in out
    # running-the-study.md gives the hub list's figures next to it, as the planner prints them
    docs = " ".join((DOCS / "running-the-study.md").read_text(encoding="utf-8").split())
    for where, label in (
        ("one claim)", "the list's own page, one claim, α = 0.05"),
        ("3 claims)", "the study's three"),
    ):
        line = next(x for x in out.splitlines() if where in x)
        mdd, p10, proom = re.search(
            r"MDD \(80% power\) ([\d.]+) ρ points.*?power (\d+%) at \+10; (\d+%) at", line
        ).groups()
        needed = re.search(r"About (\d+) such lineages", line).group(1)
        assert f"| {label}" in docs
        row = docs.split(f"| {label}", 1)[1].split("|")[1:5]
        assert [c.strip() for c in row] == [f"{mdd} ρ points", p10, proom, f"about {needed}"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["study", "--plan", "--out", "x"], "--plan plans a model list: give --models FILE"),
        (["study", "--models", "hub", "--plan", "--correlate-only"], "--plan runs nothing"),
        (["study", "--zoo", "glove-50d/mean"], "study: --out is required"),
    ],
)
def test_plan_refuses_what_it_would_ignore(argv, message, capsys):
    from mteb_evalrank.cli import main

    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_list_cost_uses_its_size_columns():
    from mteb_evalrank.integration.model_list import gpu_hours
    from mteb_evalrank.reports.study_plan import list_cost

    cost = list_cost(
        [
            {"model": "a", "gpu_hours_est": "0.5", "n_parameters": "1"},
            {"model": "b", "gpu_hours_est": "", "n_parameters": "100000000"},
            {"model": "c"},
        ]
    )
    assert cost.n_with == 2 and cost.without == ("c",)
    assert cost.hours == pytest.approx(0.5 + gpu_hours(100_000_000))


def _meta(**fields):
    base = {"open_weights": True, "modalities": ["text"], "adapted_from": None, "model_type": ["dense"]}
    return SimpleNamespace(**{**base, **fields})


def test_registry_count_is_an_upper_bound_and_says_what_rests_on_silence():
    """Chains of ``adapted_from`` make one lineage; the hub list's hand-checked lineage merges roots; closed,
    image and cross-encoder entries are not counted; a lone entry without ``adapted_from`` is counted as
    resting only on absent metadata."""
    from mteb_evalrank.integration.registry_count import count_lineages

    metas = {
        "org/base": _meta(),
        "org/tuned": _meta(adapted_from="org/base"),
        "org/tuned2": _meta(adapted_from="org/tuned"),
        "x/outside": _meta(adapted_from="hub/not-in-registry"),
        "y/lone": _meta(),
        "z/lone": _meta(),
        "z/checked": _meta(),
        "w/closed": _meta(open_weights=False),
        "w/clip": _meta(modalities=["text", "image"]),
        "w/rerank": _meta(model_type=["cross-encoder"]),
    }
    count = count_lineages(metas, {"z/lone": "zeta", "z/checked": "zeta"})
    assert (count.n_entries, count.n_encoders) == (10, 7)
    assert count.n_lineages == 4  # org/base, hub/not-in-registry, y/lone, zeta
    assert count.n_silent == 1 and count.n_evidence == 3  # y/lone rests on the registry's silence
    assert count.n_organisations == 4  # org, hub, y, zeta
    assert "at most 4 lineages (an upper bound: metadata only); 1 of them rest only on absent metadata" in count.line()


def test_study_population_counts_the_registry(capsys):
    """``study-population --from-registry`` with no name counts MTEB's registry (metadata only) and writes
    nothing; with --out it refuses, since nothing would be written."""
    from mteb_evalrank.cli import main

    assert main(["study-population", "--from-registry"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"(\d+) open-weights dense text encoders of (\d+) registry entries, in at most (\d+) lineages", out)
    assert m and int(m.group(3)) <= int(m.group(1)) <= int(m.group(2))
    assert "rest only on absent metadata" in out
    assert main(["study-population", "--from-registry", "--out", "x.csv"]) == 2
    import mteb

    if mteb.__version__ == "2.26.24":  # the version the docs quote
        docs = " ".join((DOCS / "running-the-study.md").read_text(encoding="utf-8").split())
        assert f'"{out.strip()}"' in docs


def test_the_docs_say_what_the_registry_population_could_decide():
    """The table of running-the-study.md: MDD and power at +10 for the registry's lineage counts, as
    :func:`plan_power` gives them (the lineage counts are the printed count's)."""
    from mteb_evalrank.metrics.confirmatory import plan_power
    from mteb_evalrank.reports.study_plan import level_data

    docs = " ".join((DOCS / "running-the-study.md").read_text(encoding="utf-8").split())
    rows = re.findall(
        r"\| (\d+), (?:the upper bound|with recorded evidence) \| ([\d.]+) \| (\d+)% \| ([\d.]+) \| (\d+)% \|", docs
    )
    assert len(rows) == 2
    quoted = re.search(r"in at most (\d+) lineages .*? so (\d+) lineages have recorded evidence", docs)
    assert [int(r[0]) for r in rows] == [int(quoted.group(1)), int(quoted.group(2))]
    data = level_data("sentence")
    for n, mdd1, p1, mdd3, p3 in rows:
        for alpha, mdd, p in ((0.05, mdd1, p1), (0.05 / 3, mdd3, p3)):
            plan = plan_power(data, int(n), alpha, simulate_growth=False)
            assert (f"{plan.mdd:.1f}", f"{plan.power_at_target:.0%}") == (mdd, f"{p}%")
