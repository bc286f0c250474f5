"""Cost per family of the study (:mod:`mteb_evalrank.reports.study_timing`): sums, overrides, completeness."""

from __future__ import annotations

from mteb_evalrank.reports.study_timing import family_times, format_family_times


def test_family_times_sum_last_seconds_and_flag_complete_families():
    timing = [
        {"seconds_by_variant": {"a/x": 100.0, "a/y": 5.0, "b/x": 7.0}, "cold_variants": ["a/x", "b/x"]},
        {"seconds_by_variant": {"a/y": 6.0}, "cold_variants": []},  # a re-run replaces the earlier figure
        {"seconds": 50.0},  # a run from before per-variant timing: contributes nothing
    ]
    variants = ["a/x", "a/y", "b/x", "c/x"]
    family = {"a/x": "A", "a/y": "A", "b/x": "B", "c/x": "B"}
    base = {"a/x": "a", "a/y": "a", "b/x": "b", "c/x": "c"}
    rows = {r.family: r for r in family_times(timing, variants, family, base)}
    assert (rows["A"].seconds, rows["A"].timed, rows["A"].cold_bases, rows["A"].complete) == (106.0, 2, 1, True)
    assert (rows["B"].seconds, rows["B"].timed, rows["B"].bases, rows["B"].complete) == (7.0, 1, 2, False)
    table = format_family_times(list(rows.values()))
    assert "| A | 2 of 2 | 106 | 1 of 1 | yes |" in table
    assert "| **total** | 3 of 4 | 113 | 2 of 3 | 1 of 2 families (106 s) |" in table
