"""`mteb-evalrank ranks FOLDER (-t TASK ... | -b BENCHMARK)` on synthetic result folders (reports/ranks.py)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.cli import main
from mteb_evalrank.integration import item_values
from mteb_evalrank.metrics.score_uncertainty import pair_groups


class _Model:
    def __init__(self, name: str, revision: str = "r1"):
        class Meta:
            pass

        self.mteb_model_meta = Meta()
        self.mteb_model_meta.name, self.mteb_model_meta.revision = name, revision


def _write(folder: Path, model: str, ranks: np.ndarray | None, *, task="EvalRankSent", score=None) -> Path:
    """A result of ``model`` for an EvalRank-like task (items file when ``ranks`` is given), or a plain
    ``score`` (no items: like MTEB's own tasks)."""
    target = folder / "results" / model.replace("/", "__") / "r1" / f"{task}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    main_score = float(np.mean(1.0 / ranks)) if ranks is not None else float(score)
    entry = {"hf_subset": "default", "main_score": main_score, "mrr": main_score, "languages": ["eng-Latn"]}
    (target.parent / "model_meta.json").write_text(json.dumps({"name": model, "revision": "r1"}))
    result = {"task_name": task, "dataset_revision": "v1", "mteb_version": "2.26.24", "evaluation_time": 1.0}
    target.write_text(json.dumps({**result, "scores": {"test": [entry]}}))
    if ranks is not None:
        n = ranks.size
        items = item_values.SubsetItems(
            values={"cos_rank": ranks.astype(np.int64)},
            digest=item_values.items_digest(["x"] * n),
            groups=pair_groups(np.arange(n), np.arange(n) ^ 1),
            scores={"mrr": main_score},
        )
        item_values.record(task, _Model(model), "test", "default", items)
        item_values.flush(task, model, "r1", target)
        item_values.forget()
    return target


@pytest.fixture
def folder(tmp_path):
    rng = np.random.default_rng(5)
    good = rng.integers(1, 4, 800)
    _write(tmp_path, "org/good", good)
    _write(tmp_path, "org/worse", good + rng.integers(0, 6, 800))
    _write(tmp_path, "org/twin", np.where(rng.random(800) < 0.5, good, good + 1))
    for model, score in (("org/good", 0.7), ("org/worse", 0.5), ("org/twin", 0.6)):
        _write(tmp_path, model, None, task="SentEvalMR", score=score)
    return tmp_path


def test_csv_has_the_rank_columns_and_one_column_per_score(folder, tmp_path, capsys):
    out = tmp_path / "out" / "ranks.csv"
    figure = tmp_path / "out" / "ranks.png"
    argv = ["ranks", str(folder), "-t", "EvalRankSent", "--csv", str(out), "--out", str(figure), "--resamples", "300"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    with out.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["model", "rank", "rank_low", "rank_high", "group", "mean", "EvalRankSent"]
    assert [r["model"] for r in rows] == ["org/good", "org/twin", "org/worse"]
    assert [r["rank"] for r in rows] == ["1", "2", "3"]
    assert all(int(r["rank_low"]) <= int(r["rank"]) <= int(r["rank_high"]) for r in rows)
    assert rows[0]["group"] == "1" and rows[2]["group"] != rows[0]["group"]
    assert figure.stat().st_size > 1000
    assert "resampled by task only" not in printed and "95% rank intervals" in printed
    assert f"pairs of models differ; {rows[2]['group']} group(s)" in printed


def test_a_task_without_item_values_is_resampled_by_task_only_in_one_line(folder, tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert (
        main(["ranks", str(folder), "-t", "EvalRankSent", "SentEvalMR", "--csv", str(out), "--resamples", "200"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    by_task = [line for line in lines if "resampled by task only" in line]
    assert by_task == ["SentEvalMR: resampled by task only (no per-item values for org/good and 2 more model(s))."]
    with out.open(newline="") as fh:
        assert next(csv.reader(fh))[5:] == ["mean", "EvalRankSent", "SentEvalMR"]


def test_borda_aggregation_and_models_without_every_task(folder, capsys):
    _write(folder, "org/partial", np.full(800, 2))
    assert (
        main(["ranks", str(folder), "-t", "EvalRankSent", "SentEvalMR", "--aggregation", "borda", "--resamples", "200"])
        == 0
    )
    out = capsys.readouterr().out
    assert "left out (not every task run): org/partial" in out and "borda aggregation" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["-t", "EvalRankSent", "-b", "EvalRank"], "not allowed with argument"),
        (["-t", "NoSuchTask"], "no model in"),
        (["-t", "EvalRankSent", "--alpha", "0.7"], "not between 0 and 0.5"),
        (["-b", "NoSuchBenchmark"], "unknown benchmark 'NoSuchBenchmark'"),
    ],
    ids=["both", "no-results", "alpha", "benchmark"],
)
def test_bad_input_is_one_line_and_exit_2(folder, capsys, args, message):
    try:
        code = main(["ranks", str(folder), *args])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert message in err.splitlines()[-1]


def test_the_html_report_shows_the_rank_intervals(folder, tmp_path):
    from mteb_evalrank.reports.leaderboard import write_report

    out, _ = write_report(folder, tmp_path / "report.html")
    html = out.read_text(encoding="utf-8")
    section = html[html.index('id="rank-intervals"') :]
    assert section.index('alt="rank intervals" src="data:image/png;base64,') < section.index('id="evalrank-section"')
    assert "SentEvalMR: resampled by task only" in section


class _FakeApp:
    def launch(self, **kwargs):
        pass


@pytest.mark.integration  # imports MTEB's leaderboard app: needs the leaderboard extra (gradio)
def test_leaderboard_writes_rank_intervals_beside_the_app_only_once_it_is_built(folder, monkeypatch, capsys):
    from types import SimpleNamespace

    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration import leaderboard_app
    from mteb_evalrank.reports import ranks

    monkeypatch.setattr(leaderboard_app, "check_port", lambda host, port: None)
    monkeypatch.setattr(ranks, "_benchmark_tasks", lambda name: ["EvalRankSent", "SentEvalMR"])

    def refused(folder, benchmark):
        raise InputError(f"unknown benchmark {benchmark!r}")

    monkeypatch.setattr(leaderboard_app, "leaderboard_app", refused)
    assert main(["leaderboard", str(folder), "--benchmark", "NoSuch"]) == 2
    assert not (folder / "leaderboard").exists()  # a bad --benchmark writes nothing

    built = SimpleNamespace(notes=[], unregistered=[])
    monkeypatch.setattr(leaderboard_app, "leaderboard_app", lambda folder, benchmark: (_FakeApp(), built))
    monkeypatch.setattr(leaderboard_app, "_current_default", lambda: "EvalRank(study)")
    assert main(["leaderboard", str(folder), "--benchmark", "EvalRank(study)"]) == 0
    path = folder / "leaderboard" / "ranks_EvalRank_study_.csv"
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["model"] for r in rows] == ["org/good", "org/twin", "org/worse"]
    assert (
        f"rank intervals of EvalRank(study) (3 models; 1 task(s) resampled by task only): {path}"
        in capsys.readouterr().out
    )
