"""mteb.run, the EvalRank benchmark, MTEB-valid results, the HTML report and prepare-submission (issue 14)."""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import types
from html.parser import HTMLParser
from pathlib import Path

import mteb
import numpy as np
import pytest
from results_fixture import MODELS, model_folder, model_meta, mteb_task_score, task_score, write_results

from mteb_evalrank.errors import InputError
from mteb_evalrank.integration import run as run_module
from mteb_evalrank.integration.benchmarks import EVALRANK_TASKS, STUDY_NAME
from mteb_evalrank.integration.registry import plugin_tasks
from mteb_evalrank.reports.leaderboard import collect, write_report
from mteb_evalrank.reports.submission import REJECTED, UPSTREAM, prepare_submission


# --- a tiny MTEB encoder: words hashed to fixed random vectors, a text is their mean ---------------
class HashingEncoder:
    def __init__(self, dim: int = 32) -> None:
        self.dim = dim
        self.mteb_model_meta = model_meta("test/hashing-words", "0" * 15 + "1", dim)
        self.calls = 0

    def _word(self, word: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "little")
        return np.random.default_rng(seed).standard_normal(self.dim)

    def encode(self, inputs, **kwargs) -> np.ndarray:
        self.calls += 1
        texts = [t for batch in inputs for t in batch["text"]]
        return np.array(
            [np.mean([self._word(w) for w in (t.lower().split() or [""])], axis=0) for t in texts], dtype=np.float32
        )

    def similarity(self, a, b):
        from mteb.similarity_functions import cos_sim

        return cos_sim(a, b)

    def similarity_pairwise(self, a, b):
        from mteb.similarity_functions import pairwise_cos_sim

        return pairwise_cos_sim(a, b)


@pytest.fixture
def data_env(monkeypatch, tmp_path, fixture_sources):
    """Plugin data built from the source-format fixtures into a temporary cache (offline)."""
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


# --- benchmark ---------------------------------------------------------------------------------------
@pytest.mark.integration
def test_benchmark_resolves_by_name_in_a_fresh_interpreter(tmp_path):
    """``mteb.get_benchmark``/``get_benchmarks`` and MTEB's own CLI (``-b``, as ``mteb run -b`` parses it)."""
    code = (
        "import json, mteb\n"
        "b = mteb.get_benchmark('EvalRank')\n"
        "names = [x.name for x in mteb.get_benchmarks()]\n"
        "alias = mteb.get_benchmark('EvalRank(all)').name\n"
        "study = mteb.get_benchmark('EvalRank(study)')\n"
        "seen = {'tasks': [t.metadata.name for t in b.tasks], 'listed': names, 'alias': alias,\n"
        "  'study': [t.metadata.name for t in study.tasks], 'citation': b.citation, 'reference': b.reference,\n"
        "  'description': b.description, 'has_run': callable(getattr(mteb, 'run', None))}\n"
        "from mteb.cli.build_cli import build_cli\n"
        "args = build_cli().parse_args(['available-benchmarks', '-b', 'EvalRank'])\n"
        "args.func(args)  # (MTEB's listing sorts the benchmark's tasks in place)\n"
        "print(json.dumps(seen))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "MTEB_EVALRANK_NO_AUTOLOAD"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    *listing, last = proc.stdout.strip().splitlines()
    out = json.loads(last)
    scored = [t for t in EVALRANK_TASKS if t != "HEROS"]  # a diagnostic is in no benchmark's mean (issue 44)
    assert out["tasks"] == scored
    assert set(out["tasks"]) == {cls.metadata.name for cls in plugin_tasks() if cls.role != "diagnostic"}
    assert "EvalRank" in out["listed"] and STUDY_NAME in out["listed"]
    assert out["alias"] == "EvalRank"
    assert (
        "N2O" not in out["study"]
        and "HEROS" not in out["study"]
        and {"EvalRankSent", "SentEvalMR"} <= set(out["study"])
    )
    for key in ("wang-etal-2022-just", "chiang-etal-2023-revealing", "lin2019situating", "conneau-kiela-2018-senteval"):
        assert key in out["citation"]
    for paper in ("aclanthology.org/2022.acl-long.419", "arxiv.org/abs/1909.10724", "dcml0714/Heros", "L18-1269"):
        assert paper in out["description"]
    assert out["reference"] == "https://aclanthology.org/2022.acl-long.419"
    assert out["has_run"] is True
    listing = "\n".join(listing)  # MTEB's own benchmark listing
    assert "EvalRank" in listing and "EvalRankSent" in listing and "SentEvalMR" in listing


# --- mteb.run ----------------------------------------------------------------------------------------
def test_mteb_run_is_installed_because_mteb_has_none():
    import mteb_evalrank

    assert mteb.run is run_module.run
    assert mteb_evalrank.run is run_module.run


@pytest.mark.integration
def test_a_future_mteb_run_is_left_alone():
    def their_run(*args, **kwargs):
        return "theirs"

    future = types.SimpleNamespace(run=their_run)
    assert run_module.install_as_mteb_run(future) is False
    assert future.run is their_run
    bare = types.SimpleNamespace()
    assert run_module.install_as_mteb_run(bare) is True
    assert bare.run is run_module.run
    # the real registration path, in a fresh interpreter whose mteb already has a run
    code = (
        "import mteb\n"
        "def run(*a, **k): return 'theirs'\n"
        "mteb.run = run\n"
        "import mteb_evalrank.tasks, mteb_evalrank\n"  # registers the plugin
        "assert mteb.run is run, mteb.run\n"
        "assert mteb_evalrank.run.__module__ == 'mteb_evalrank.integration.run'\n"
        "assert mteb.get_benchmark('EvalRank').name == 'EvalRank'\n"
        "print('ok')\n"
    )
    env = {**os.environ, "MTEB_EVALRANK_NO_AUTOLOAD": "1"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stderr[-2000:]


@pytest.mark.integration
def test_mteb_run_with_a_tiny_model(tmp_path, data_env):
    model = HashingEncoder()
    out = io.StringIO()
    result = mteb.run(
        tasks=["EvalRankSent"], model=model, output_folder=tmp_path / "res", stream=out, show_progress_bar=False
    )
    assert isinstance(result, mteb.results.ModelResult)
    assert model.calls >= 1
    text = out.getvalue()
    assert "model: test/hashing-words" in text
    [tr] = result.task_results
    for entry in tr.scores["test"]:  # the printed table has one line per subset with its main score ± its SE
        line = next(line for line in text.splitlines() if line.split()[:2] == ["EvalRankSent", entry["hf_subset"]])
        assert line.split()[2] == f"{entry['main_score']:.4f}"
        assert line.split()[3:5] == ["±", f"{entry['mrr_se']:.4f}"]
    files = list((tmp_path / "res").rglob("EvalRankSent.json"))
    assert [f.relative_to(tmp_path / "res").parts[:3] for f in files] == [
        ("results", "test__hashing-words", "0" * 15 + "1")
    ]
    # MTEB loads it back like a built-in task's result
    loaded = mteb.ResultCache(tmp_path / "res").load_results(
        tasks=["EvalRankSent"], validate_and_filter=True, include_remote=False
    )
    [mr] = loaded.model_results
    assert mr.task_results[0].get_score() == pytest.approx(np.mean([e["main_score"] for e in tr.scores["test"]]))


@pytest.mark.integration
def test_a_stored_result_of_other_scoring_options_is_computed_again(tmp_path, data_env):
    """Issue 47: MTEB's cache knows a result by model, revision and task; centring and the tie rule change the
    score, so a stored result scored under other options is computed again (with a one-line warning) and replaces
    the file, and refused where it may not be replaced (``never``, ``only-cache``)."""
    from mteb_evalrank.errors import EvalRankWarning

    def run(folder, **options):
        out = io.StringIO()
        result = mteb.run(
            tasks=["EvalRankSent"],
            model=HashingEncoder(),
            output_folder=folder,
            stream=out,
            show_progress_bar=False,
            **options,
        )
        [tr] = result.task_results
        return {e["hf_subset"]: e for e in tr.scores["test"]}

    shared, fresh = tmp_path / "shared", tmp_path / "fresh"
    centred = run(shared)
    assert {e["centered"] for e in centred.values()} == {True}
    with pytest.warns(EvalRankWarning, match=r"computed with centered=true.*not centered=false.*computing it again"):
        uncentred = run(shared, center=False)
    assert uncentred == run(fresh, center=False)  # the score of a fresh run under the options asked
    assert {e["centered"] for e in uncentred.values()} == {False}
    [file] = shared.rglob("EvalRankSent.json")
    stored = json.loads(file.read_text())["scores"]["test"]
    assert {(e["centered"], e["ties"]) for e in stored} == {(False, "pessimistic")}
    with pytest.warns(EvalRankWarning, match='ties="pessimistic".*not centered=false, ties="optimistic"'):
        run(shared, center=False, ties="optimistic")
    assert {e["ties"] for e in json.loads(file.read_text())["scores"]["test"]} == {"optimistic"}
    before = file.read_bytes()
    for strategy in ("never", "only-cache"):
        with pytest.raises(InputError, match=f"--overwrite-strategy {strategy}: .*EvalRankSent.json was computed with"):
            run(shared, overwrite_strategy=strategy)
    assert file.read_bytes() == before
    import warnings

    with warnings.catch_warnings():  # the same options: the stored result is used, no warning
        warnings.simplefilter("error", EvalRankWarning)
        assert (
            run(shared, center=False, ties="optimistic", overwrite_strategy="never")["default"]["ties"] == "optimistic"
        )


@pytest.mark.integration
def test_mteb_run_default_model_says_which_model(tmp_path, monkeypatch, data_env):
    asked = []
    tiny = HashingEncoder()

    def fake_get_model(name, revision=None, device=None, **kwargs):
        asked.append(name)
        return tiny

    monkeypatch.setattr(mteb, "get_model", fake_get_model)
    out = io.StringIO()
    mteb.run(tasks="EvalRankSent", output_folder=tmp_path / "res", stream=out, show_progress_bar=False)
    assert asked == [run_module.DEFAULT_MODEL]
    first = out.getvalue().splitlines()[0]
    assert first.startswith(f"no model given: using {run_module.DEFAULT_MODEL}")
    assert ("packaged weights" in first) == (run_module_packaged() is not None)


def run_module_packaged():
    from mteb_evalrank.models.packaged import packaged_model_path

    return packaged_model_path(run_module.DEFAULT_MODEL)


@pytest.mark.integration
def test_mteb_run_bad_input_is_one_clear_error(tmp_path):
    with pytest.raises(InputError, match="EvalRankSnet.*did you mean EvalRankSent"):
        mteb.run(tasks=["EvalRankSnet"], model=HashingEncoder(), output_folder=tmp_path / "r")
    with pytest.raises(InputError, match="output_folder"):
        mteb.run(tasks=["EvalRankSent"], model=HashingEncoder(), cache=None)
    assert [t.metadata.name for t in run_module.resolve_tasks("EvalRank(study)")][:2] == [
        "EvalRankWord",
        "EvalRankSent",
    ]


@pytest.mark.integration
@pytest.mark.parametrize("how", [["mteb"], [sys.executable, "-m", "mteb"]], ids=["mteb", "python -m mteb"])
def test_a_plugin_error_under_mtebs_own_cli_is_one_line(tmp_path, how):
    """Issue 49: under ``mteb run`` the plugin's one-line errors (an unknown zoo variant, a non-finite value in a
    vectors file, ...) ended in tracebacks.  The start-up hook prints them as the plugin's CLI does."""
    import shutil

    exe = shutil.which("mteb") if how == ["mteb"] else how[0]
    if exe is None:
        pytest.skip("MTEB's console script is not on PATH")
    cmd = [exe, *how[1:], "run", "-m", "zoo:nonsense/mean", "-t", "WS-353-All", "--output-folder", str(tmp_path)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "MTEB_EVALRANK_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr + proc.stdout
    last = (proc.stderr.strip().splitlines() or [""])[-1]
    assert last.startswith("mteb-evalrank: error: unknown zoo model 'zoo:nonsense/mean'"), proc.stderr[-2000:]


def test_the_cli_hook_prints_only_the_plugins_own_errors(capsys):
    from mteb_evalrank import _autoload

    seen = []
    hook = _autoload._one_line_hook(lambda *a: seen.append(a[0]))
    try:
        try:
            raise InputError("bad thing\nsecond line")
        except InputError as exc:
            raise RuntimeError("MTEB wrapped it") from exc
    except RuntimeError as wrapped:
        hook(RuntimeError, wrapped, wrapped.__traceback__)
    assert capsys.readouterr().err == "mteb-evalrank: error: bad thing; second line\n" and seen == []
    hook(KeyError, KeyError("x"), None)  # not the plugin's: Python's own hook (a traceback)
    assert seen == [KeyError]


# --- results MTEB accepts --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def three_models(tmp_path_factory):
    root = tmp_path_factory.mktemp("three")
    written = write_results(root)
    return root, written


def test_result_files_validate_and_aggregate_with_mtebs_own_code(three_models):
    root, written = three_models
    for path in root.rglob("*.json"):
        if path.name != "model_meta.json":
            mteb.TaskResult.model_validate_json(path.read_text())  # MTEB's schema
    bench = mteb.get_benchmark("EvalRank")
    results = mteb.ResultCache(root).load_results(tasks=bench, validate_and_filter=True, include_remote=False)
    assert sorted(results.model_names) == sorted(n for n, _ in MODELS)
    expected_mean = {}
    in_benchmark = {t.metadata.name for t in bench.tasks}  # every plugin task but the HEROS diagnostic (issue 44)
    assert in_benchmark == set(EVALRANK_TASKS) - {"HEROS"}
    for (name, _revision), tasks in written.items():
        mr = next(m for m in results.model_results if m.model_name == name)
        for tr in mr.task_results:
            score = tr.validate_and_filter_scores().get_score()
            assert score == pytest.approx(mteb_task_score(tasks[tr.task_name])) == task_score(tasks[tr.task_name])
        expected_mean[name] = np.mean([mteb_task_score(s) for t, s in tasks.items() if t in in_benchmark])
    scores = bench.get_score(results)
    for name, mean in expected_mean.items():
        assert scores[name]["Mean(Task)"] == pytest.approx(mean)
    table = results.get_benchmark_result()
    assert len(table) == 3
    by_model = dict(zip(table["Model"], table["Mean (Task)"], strict=True))  # MTEB's leaderboard summary
    assert by_model == pytest.approx(expected_mean)
    frame = results.to_dataframe()
    assert set(frame["task_name"]) == in_benchmark


# --- report -----------------------------------------------------------------------------------------
class _Tables(HTMLParser):
    """The cells of every table with an id: {id: [[cell text, ...], ...]} (header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._table = dict(attrs).get("id")
            if self._table:
                self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def read_tables(path: Path) -> dict[str, list[list[str]]]:
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def test_report_of_three_models_has_the_right_values(three_models, tmp_path):
    root, written = three_models
    out, data = write_report(root, tmp_path / "report.html")
    html = out.read_text(encoding="utf-8")
    assert "http://" not in html.replace("http://www.w3.org", "") and "<script src" not in html  # self-contained
    tables = read_tables(out)
    header, *rows = tables["leaderboard"]
    assert header[:5] == ["Rank", "Model", "Revision", "Mean (Task)", "Tasks"]
    assert header[5:] == list(EVALRANK_TASKS)
    assert len(rows) == 3
    means = {}
    for (name, _revision), tasks in written.items():
        row = next(r for r in rows if r[1] == name)
        for task, cell in zip(header[5:], row[5:], strict=True):
            assert cell == f"{task_score(tasks[task]):.4f}", (name, task)
        means[name] = np.mean([task_score(tasks[t]) for t in EVALRANK_TASKS])
        assert row[3] == f"{means[name]:.4f}"
        assert row[4] == f"{len(EVALRANK_TASKS)}/{len(EVALRANK_TASKS)}"
    # rows ordered by mean, rank 1 = best
    assert [r[1] for r in rows] == sorted(means, key=means.get, reverse=True)
    assert [r[0] for r in rows] == ["1", "2", "3"]
    # per-task detail: EvalRank subsets with cos and l2
    sent = tables["detail-EvalRankSent"]
    assert "all MRR cos" in sent[0] and "all MRR l2" in sent[0]
    name, revision = MODELS[0]
    row = next(r for r in sent[1:] if r[0] == name)
    whole = written[(name, revision)]["EvalRankSent"]["test"]["default"]
    assert row[sent[0].index("stsb MRR l2")] == f"{whole['scores_per_source']['stsb']['l2_mrr']:.4f}"
    assert row[sent[0].index("all MRR cos")] == f"{whole['mrr']:.4f}"
    # HEROS table and chart, downstream tables, model metadata
    assert "detail-HEROS" in tables and 'alt="HEROS chart" src="data:image/png;base64,' in html
    assert "detail-SentEvalMR" in tables and "detail-SentEvalSTS12" in tables
    meta_rows = tables["models"]
    assert {r[1] for r in meta_rows[1:]} == {n for n, _ in MODELS}
    assert all("batch_size=32" in " ".join(r) for r in meta_rows[1:])


def _write_fixed(root: Path, name: str, scores: dict[str, float], extra: dict[str, dict] | None = None) -> None:
    """Results of ``name`` with the given main score per task (single-subset tasks)."""
    revision = "0" * 40
    cache, meta = mteb.ResultCache(root), model_meta(name, revision)
    for task_name, value in scores.items():
        task = mteb.get_task(task_name)
        entry = {"main_score": value, str(task.metadata.main_score): value, **(extra or {}).get(task_name, {})}
        split = task.metadata.eval_splits[0]
        tr = mteb.TaskResult.from_task_results(task, {split: {"default": entry}}, evaluation_time=1.0)
        cache.save_to_cache(tr, meta)


def test_report_ranks_a_partial_folder_on_the_tasks_each_pair_shares(tmp_path):
    """Issue 19: only models with every task were ranked, so GloVe (all tasks) was "Rank 1" and MiniLM,
    better on every task it has, had no rank."""
    from mteb_evalrank.metrics.shared_task_ranks import rank_on_shared_tasks

    _write_fixed(tmp_path, "org/glove", {"SentEvalMR": 0.60, "SentEvalCR": 0.55})
    _write_fixed(tmp_path, "org/minilm", {"SentEvalMR": 0.80})
    _write_fixed(tmp_path, "org/random", {"SentEvalCR": 0.50})
    out, _ = write_report(tmp_path, tmp_path / "report.html")
    header, *rows = read_tables(out)["leaderboard"]
    rank = {r[1]: r[0] for r in rows}
    mean = {r[1]: r[header.index("Mean (Task)")] for r in rows}
    assert rank == {"org/minilm": "1", "org/glove": "2", "org/random": "3"}
    assert mean == {"org/minilm": "", "org/glove": "0.5750", "org/random": ""}  # the mean needs every task
    assert "compared on the tasks both have" in out.read_text(encoding="utf-8")
    # the rule: pairwise on shared tasks; all tasks present = order of the mean; ties share a rank
    assert rank_on_shared_tasks([[0.6, 0.55], [0.8, None], [None, 0.5]]) == [2, 1, 3]
    assert rank_on_shared_tasks([[0.5, 0.9], [0.6, 0.6], [0.1, 0.2]]) == [1, 2, 3]  # means 0.7, 0.6, 0.15
    assert rank_on_shared_tasks([[0.5, 0.7], [0.7, 0.5], [0.1, 0.1]]) == [1, 1, 3]  # equal means share a rank
    assert rank_on_shared_tasks([[0.4, None], [None, 0.9]]) == [None, None]  # nothing in common
    assert rank_on_shared_tasks([[0.4, None]]) == [1]


def test_report_shows_n2o_needle_counts_as_integers(tmp_path):
    """Issue 19: needle counts printed as ``94.0000`` next to the MRR."""
    counts = {"needle_mrr": 0.912345, "needle_top1": 94.0, "needle_top5": 99, "needle_count": 100}
    _write_fixed(tmp_path, "org/minilm", {"N2O": 0.912345}, extra={"N2O": counts})
    out, _ = write_report(tmp_path, tmp_path / "report.html")
    header, row = read_tables(out)["detail-N2O"]
    assert header == ["Model", "needle MRR", "needle top-1 (pairs)", "needle top-5 (pairs)", "needle pairs"]
    assert row == ["org/minilm", "0.9123", "94", "99", "100"]


def test_report_bad_input(three_models, tmp_path):
    import shutil

    root, written = three_models
    work = tmp_path / "res"
    shutil.copytree(root, work)
    name, revision = MODELS[1]
    folder = model_folder(work, name, revision)
    (folder / "SentEvalMR.json").write_text('{"task_name": "SentEvalMR", "scores": ', encoding="utf-8")  # truncated
    (folder / "Notes.json").write_text('{"hello": 1}', encoding="utf-8")
    # the same model name with a second revision
    write_results(work, models=[(MODELS[0][0], "d" * 40)], tasks={"EvalRankSent"}, seed=1)
    out, data = write_report(work, tmp_path / "report.html")
    skipped = {Path(s.path).name for s in data.skipped}
    assert skipped == {"SentEvalMR.json", "Notes.json"}
    tables = read_tables(out)
    assert {r[0] for r in tables["skipped"][1:]} == {str(folder / "SentEvalMR.json"), str(folder / "Notes.json")}
    labels = [r[1] for r in tables["leaderboard"][1:]]
    first, second = MODELS[0][0], MODELS[1][0]
    assert f"{first} @ {MODELS[0][1]}" in labels and f"{first} @ {'d' * 40}" in labels and second in labels
    beta = next(r for r in tables["leaderboard"][1:] if r[1] == second)
    header = tables["leaderboard"][0]
    assert beta[header.index("SentEvalMR")] == "" and beta[3] == ""  # skipped task: no score, no mean
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="no MTEB result files below"):
        collect(empty)


def test_report_correlation_section(three_models, tmp_path):
    root, _ = three_models
    csv_path = tmp_path / "correlation.csv"
    csv_path.write_text(
        "intrinsic,downstream,rho,ci_low,ci_high,kendall_tau,n_models\n"
        "EvalRankSent,SentEvalMR,0.61,0.2,0.85,0.45,12\nSentEvalSTSB,SentEvalMR,0.12,,0.5,0.1,12\n",
        encoding="utf-8",
    )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig_path = tmp_path / "ranks.png"
    plt.figure(figsize=(2, 2))
    plt.plot([0, 1], [1, 0])
    plt.savefig(fig_path)
    plt.close("all")
    out, _ = write_report(root, tmp_path / "r.html", correlation_csv=csv_path, figures=[fig_path])
    tables = read_tables(out)
    assert tables["correlation"][1][:3] == ["EvalRankSent", "SentEvalMR", "0.610"]
    assert tables["correlation"][2][3] == ""  # blank ci_low stays blank
    assert 'alt="ranks.png" src="data:image/png;base64,' in out.read_text(encoding="utf-8")
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"missing column\(s\) intrinsic"):  # given: refused, no page
        write_report(root, tmp_path / "r2.html", correlation_csv=bad)
    assert not (tmp_path / "r2.html").exists()
    found = tmp_path / "found"  # found next to the results: named in the page, the rest is built
    shutil.copytree(root, found / "results")
    shutil.copy(bad, found / "correlation.csv")
    out, _ = write_report(found / "results", tmp_path / "r3.html")
    assert "missing column(s) intrinsic" in out.read_text(encoding="utf-8")


def test_report_reads_a_correlation_csv_with_a_bom_and_only_the_needed_columns(three_models, tmp_path):
    """Issue 47 (sweep_holdout47 report-correlation-bom-ok): a correlation CSV saved as Excel's "CSV UTF-8" (a
    byte-order mark) with only intrinsic, downstream and rho was refused as missing every column; it is read by
    the one table reader, and the interval, tau and n stay blank."""
    root, _ = three_models
    csv_path = tmp_path / "bom.csv"
    csv_path.write_text("\ufeffintrinsic,downstream,rho\nEvalRankSent,SentEvalMR,0.5\n", encoding="utf-8")
    out, _ = write_report(root, tmp_path / "r.html", correlation_csv=csv_path)
    row = read_tables(out)["correlation"][1]
    assert row[:3] == ["EvalRankSent", "SentEvalMR", "0.500"] and row[3] == ""
    csv_path.write_text("\ufeffintrinsic,downstream,kendall_tau\nEvalRankSent,SentEvalMR,0.5\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"missing column\(s\) rho\.$"):
        write_report(root, tmp_path / "r2.html", correlation_csv=csv_path)


def test_report_warns_about_a_nan_main_score(tmp_path):
    """Issue 47 (sweep_holdout47 report-results-nan-main): a result whose main score is NaN showed an empty cell
    without a word; one warning names the file (and so the task), as correlate does."""
    from mteb_evalrank.errors import EvalRankWarning

    _write_fixed(tmp_path, "org/glove", {"SentEvalMR": 0.60, "SentEvalCR": 0.55})
    path = next(tmp_path.rglob("SentEvalMR.json"))
    data = json.loads(path.read_text())
    data["scores"]["test"][0]["main_score"] = float("nan")
    path.write_text(json.dumps(data))
    with pytest.warns(EvalRankWarning, match=r"SentEvalMR\.json: score default\.main_score is nan; counted as missing"):
        out, _ = write_report(tmp_path, tmp_path / "report.html")
    header, row = read_tables(out)["leaderboard"]
    assert row[header.index("SentEvalMR")] == "" and row[header.index("SentEvalCR")] == "0.5500"


def test_report_refuses_model_folders_whose_names_are_unicode_twins(tmp_path):
    """Issue 47 (sweep_holdout47 report-results-twins, leaderboard-twins): two folders of one model revision whose
    names differ only in Unicode normalisation (NFC, NFD) were shown as two models that print alike; the report
    and the leaderboard refuse them by the results reader's one rule (data.result_files.ModelOwners)."""
    import unicodedata

    from mteb_evalrank.integration.leaderboard_models import folder_models

    for form in ("NFC", "NFD"):
        _write_fixed(tmp_path, "org/" + unicodedata.normalize(form, "naïve"), {"SentEvalMR": 0.6})
    with pytest.raises(InputError, match="both hold results of .* under Unicode normalisation"):
        collect(tmp_path)
    with pytest.raises(InputError, match="both hold results of .* under Unicode normalisation"):
        folder_models(tmp_path)


def test_report_scales_to_many_models(tmp_path):
    models = [(f"org/m{i:03d}", f"{i:040x}") for i in range(60)]
    write_results(tmp_path, models=models, tasks={"EvalRankSent", "HEROS", "SentEvalMR"})
    out, data = write_report(tmp_path, tmp_path / "many.html")
    tables = read_tables(out)
    assert len(tables["leaderboard"]) == 61 and len(tables["detail-HEROS"]) == 61
    assert "chart: the first 40 of 60 models" in out.read_text(encoding="utf-8")


def test_cli_report_and_prepare_submission(three_models, tmp_path):
    from mteb_evalrank.cli import main

    root, _ = three_models
    assert main(["report", str(root), "--out", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").is_file()
    assert main(["prepare-submission", str(root), "--out", str(tmp_path / "sub")]) == 0
    assert main(["report", str(tmp_path / "nothing"), "--out", str(tmp_path / "x.html")]) == 2


# --- prepare-submission -------------------------------------------------------------------------------
def test_prepare_submission_layout_and_rejections(three_models, tmp_path):
    import shutil

    root, written = three_models
    work = tmp_path / "res"
    shutil.copytree(root, work)
    no_meta = model_folder(work, *MODELS[2])
    (no_meta / "model_meta.json").unlink()
    beta = model_folder(work, *MODELS[1])
    data = json.loads((beta / "EvalRankWord.json").read_text())
    data["scores"]["test"] = [e for e in data["scores"]["test"] if e["hf_subset"] != "default"]  # its one subset
    (beta / "EvalRankWord.json").write_text(json.dumps(data))
    write_results(work, models=[("org/delta", "e" * 12), ("org/epsilon", "main")], tasks={"EvalRankSent"})

    sub = prepare_submission(work, tmp_path / "sub")
    rejected = {(Path(f.path).name, f.reason.split(":")[0]) for f in sub.rejected}
    assert (no_meta.name, "no model_meta.json") in rejected
    assert ("EvalRankWord.json", "missing splits/subsets") in rejected
    assert any("'main' is not pinned" in f.reason for f in sub.rejected)
    assert sorted(sub.models) == sorted([MODELS[0], MODELS[1], ("org/delta", "e" * 12)])
    # the public repository's layout, revisions pinned, model meta present
    alpha = tmp_path / "sub" / "results" / MODELS[0][0].replace("/", "__") / MODELS[0][1]
    assert (alpha / "model_meta.json").is_file() and (alpha / "run_settings.jsonl").is_file()
    assert {p.stem for p in alpha.glob("*.json")} - {"model_meta"} == set(EVALRANK_TASKS)
    assert not (tmp_path / "sub" / "results" / MODELS[2][0].replace("/", "__")).exists()
    assert not (tmp_path / "sub" / "results" / "org__epsilon").exists()
    assert not (
        tmp_path / "sub" / "results" / MODELS[1][0].replace("/", "__") / MODELS[1][1] / "EvalRankWord.json"
    ).exists()
    # plugin tasks and unregistered models are flagged, not hidden
    flagged = {Path(f.path).stem for f in sub.needs_upstream}
    assert "EvalRankSent" in flagged
    unregistered = [f for f in sub.needs_upstream if "not in MTEB's model registry" in f.reason]
    assert [Path(f.path).parent.name for f in unregistered] == ["org__delta"]
    check = (tmp_path / "sub" / "SUBMISSION_CHECK.md").read_text()
    assert "no model_meta.json" in check and "Would be rejected (" in check
    # what was copied loads with MTEB's own cache (model meta required, as for the public repository)
    loaded = mteb.ResultCache(tmp_path / "sub").load_results(require_model_meta=True, include_remote=False)
    assert sorted(loaded.model_names) == sorted([MODELS[0][0], MODELS[1][0], "org/delta"])
    assert all(not math.isnan(tr.get_score()) for mr in loaded for tr in mr.task_results)
    assert {f.severity for f in sub.findings} <= {REJECTED, UPSTREAM}


@pytest.mark.integration
def test_cli_run_and_python_run_are_one_path(tmp_path, monkeypatch):
    """Issue 40: ``mteb-evalrank run`` calls ``mteb_evalrank.run`` (one function); a benchmark name works in both."""
    import mteb_evalrank.integration.run as run_module
    from mteb_evalrank.cli import main
    from mteb_evalrank.integration.benchmarks import EVALRANK_TASKS
    from mteb_evalrank.reports import results_table

    calls = []

    class _Result:
        exceptions: list = []

    monkeypatch.setattr(run_module, "run", lambda *a, **k: calls.append((a, k)) or _Result())
    assert (
        main(
            [
                "run",
                "-m",
                "glove-6b-50d",
                "-t",
                "EvalRank",
                "--output-folder",
                str(tmp_path / "r"),
                "--batch-size",
                "8",
                "--no-center",
            ]
        )
        == 0
    )
    [(args, kwargs)] = calls
    assert args[:2] == (["EvalRank"], "glove-6b-50d") and kwargs["center"] is False
    assert kwargs["encode_kwargs"]["batch_size"] == 8
    scored = [t for t in EVALRANK_TASKS if t != "HEROS"]  # the benchmark: HEROS (a diagnostic) is run on its own
    assert [t.metadata.name for t in run_module.resolve_tasks(["EvalRank"])] == scored
    assert not hasattr(results_table, "run_and_print")
