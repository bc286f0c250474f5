"""``mteb-evalrank export-upstream`` against the real MTEB source of the pinned version.

The module fixture gets MTEB's sdist for the installed version from PyPI (``pip download --no-binary :all:
--no-deps mteb==<version>``), writes the patch with the real command and ``git apply``-s it.  The patched
tree is then imported in subprocesses (``PYTHONPATH=<tree>``, plugin start-up hook off), so it is plain
patched MTEB that:

- passes MTEB's own checks on the new tasks and benchmark: the sdist's ``tests/`` (``test_get_tasks.py``,
  which loads every registered task) always; ``tests/test_tasks/test_metadata.py``,
  ``tests/test_validate_metadata/test_citation_formatting.py`` and ``tests/test_benchmarks/`` when
  available.  The 2.26 sdist does not ship those three (its ``tests/`` is a subset), and PyPI is all a CI
  machine has: they are taken from ``$MTEB_EVALRANK_MTEB_TESTS`` (the ``tests/`` folder of an MTEB
  checkout) or from the source tree, and the test says it skipped them otherwise.  Their test functions
  are called on exactly the new tasks (their parametrised ids are positions, not names); the benchmark
  test files run whole;
- runs EvalRankSent on GloVe 6B 50d and gives the plugin's scores (the dataset is the plugin's local copy
  of the same revision: the Hub is not reachable offline);
- loads a result file the plugin wrote, unchanged (same task name, same dataset revision);
- restores STR's blanked text from STR's csv exactly as the plugin does (the published copy of
  EvalRankSent never holds STR text).

Data: the real raw sources (``../shared/data/sources``, see ``tests/conftest.py``) when present, else the
small synthetic ones of ``tests/fixtures/sources`` (so CI always evaluates).  Skipped with the reason when
PyPI or git is unavailable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

MTEB_TESTS_ENV = "MTEB_EVALRANK_MTEB_TESTS"
MTEB_TEST_FILES = (
    "test_tasks/test_metadata.py",
    "test_validate_metadata/test_citation_formatting.py",
    "test_benchmarks/test_get_benchmarks.py",
    "test_benchmarks/test_names_must_be_unique.py",
)


def _run(tree: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """``python *args`` with the patched MTEB first on the path and the plugin's start-up hook off."""
    env = {**os.environ, "PYTHONPATH": str(tree), "MTEB_EVALRANK_NO_AUTOLOAD": "1", "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)


def _check(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def mteb_sdist(tmp_path_factory) -> Path:
    """The unpacked sdist of the installed MTEB version (from PyPI)."""
    from importlib.metadata import version

    if shutil.which("git") is None:
        pytest.skip("git is not installed (the patch is a git diff)")
    pinned = version("mteb")
    where = tmp_path_factory.mktemp("mteb_sdist")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-binary",
            ":all:",
            "--no-deps",
            "--quiet",
            f"mteb=={pinned}",
            "-d",
            str(where),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    archives = sorted(where.glob("mteb-*.tar.gz"))
    if proc.returncode != 0 or not archives:
        pytest.skip(f"cannot download the sdist of mteb=={pinned} from PyPI: {proc.stderr.strip()[-300:]}")
    with tarfile.open(archives[0]) as tar:
        tar.extractall(where, filter="data")
    return where / f"mteb-{pinned}"


@pytest.fixture(scope="module")
def patched(mteb_sdist, tmp_path_factory) -> Path:
    """The sdist with the exported patch applied (``git apply``); the command's output folder next to it."""
    from mteb_evalrank.cli import main

    out = tmp_path_factory.mktemp("export")
    assert main(["export-upstream", "--mteb-source", str(mteb_sdist), "--out", str(out)]) == 0
    patch = out / "mteb-evalrank-upstream.patch"
    subprocess.run(["git", "apply", str(patch)], cwd=mteb_sdist, check=True, timeout=60)
    return mteb_sdist


def test_export_writes_a_patch_in_mteb_layout_and_a_pr_description(patched):
    from mteb_evalrank.reports.upstream_export import EXPORTED_TASKS, NOT_EXPORTED, PR_NAME

    for rel in (
        "mteb/tasks/retrieval/eng/evalrank.py",
        "mteb/_evaluators/text/evalrank_ranking.py",
        *(f"mteb/descriptive_stats/Retrieval/{t}.json" for t in EXPORTED_TASKS),
    ):
        assert (patched / rel).is_file(), rel
    assert '"EvalRank",' in (patched / "mteb/benchmarks/_leaderboard_menu.py").read_text()
    for text in (
        (patched / "mteb/tasks/retrieval/eng/evalrank.py").read_text(),
        (patched / "mteb/_evaluators/text/evalrank_ranking.py").read_text(),
    ):
        assert "mteb_evalrank" not in text  # self-contained: MTEB does not depend on the plugin
    pr = next(patched.parent.parent.glob(f"export*/{PR_NAME}")).read_text()
    assert "not redistributed" in pr and "CC BY-SA 4.0" in pr
    for name in (*EXPORTED_TASKS, *NOT_EXPORTED):
        assert name in pr


def test_bad_mteb_source_is_one_line(tmp_path, capsys):
    from mteb_evalrank.cli import main

    (tmp_path / "src").mkdir()
    assert main(["export-upstream", "--mteb-source", str(tmp_path / "src"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mteb-evalrank: error: --mteb-source") and "not an MTEB 2.x source tree" in err
    assert len(err.splitlines()) == 1


@pytest.mark.integration
def test_patched_mteb_registers_the_tasks_and_the_benchmark(patched):
    out = _check(
        _run(
            patched,
            "-c",
            (
                "import json, mteb; b = mteb.get_benchmark('EvalRank');"
                "t = mteb.get_task('EvalRankSent');"
                "from mteb.benchmarks._leaderboard_menu import GP_BENCHMARK_ENTRIES as g;"
                "flat = lambda es: [x for e in es for x in ([e.name] if isinstance(e, mteb.Benchmark) else flat(e.benchmarks))];"
                "print(json.dumps({'file': mteb.__file__, 'tasks': [x.metadata.name for x in b.tasks], 'type': t.metadata.type,"
                "'stats': t.metadata.descriptive_stats is not None, 'menu': 'EvalRank' in flat(g)}))"
            ),
        )
    )
    got = json.loads(out.strip().splitlines()[-1])
    assert got["file"].startswith(str(patched))
    assert got == {**got, "tasks": ["EvalRankWord", "EvalRankSent"], "type": "Retrieval", "stats": True, "menu": True}


@pytest.mark.integration
def test_sdist_tests_pass_on_the_patched_tree(patched):
    """The sdist's own task-registry tests, which load every registered task (ours included)."""
    proc = _run(
        patched, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-x", "tests/test_get_tasks.py"
    )
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert " passed" in proc.stdout


EQUIVALENT_CHECKS = """
import bibtexparser
from bibtexparser.bwriter import BibTexWriter
import mteb

def format_bibtex(text):  # MTEB's tests/test_validate_metadata/test_citation_formatting.py, verbatim logic
    parser = bibtexparser.bparser.BibTexParser(common_strings=True, ignore_nonstandard_types=False, interpolate_strings=False)
    database = bibtexparser.loads(text, parser)
    if not database.entries:
        return None
    writer = BibTexWriter()
    writer.indent, writer.comma_first, writer.add_trailing_comma = "  ", False, True
    return writer.write(database).strip()

for task in mteb.get_tasks(tasks=["EvalRankWord", "EvalRankSent"]):
    m = task.metadata  # the assertions of MTEB's tests/test_tasks/test_metadata.py
    m._validate_metadata()
    assert m.is_filled(), m.name
    assert m.dataset.get("trust_remote_code", False) is False
    assert isinstance(m.simplified_task_type, str)
    assert m.descriptive_stats is not None and m.n_samples is not None, m.name
    assert format_bibtex(m.bibtex_citation.strip()) == m.bibtex_citation.strip(), m.name
    print("ok", m.name)
bench = mteb.get_benchmark("EvalRank")
assert format_bibtex(bench.citation.strip()) == bench.citation.strip()
print("ok", bench.name)
"""


@pytest.mark.integration
def test_mteb_metadata_and_citation_assertions_on_the_patched_tree(patched):
    """The assertions of MTEB's metadata and citation tests, run on the new tasks everywhere (CI included:
    the sdist lacks those test files; the next test runs the files themselves when they are available)."""
    out = _check(_run(patched, "-c", EQUIVALENT_CHECKS))
    assert out.split() == ["ok", "EvalRankWord", "ok", "EvalRankSent", "ok", "EvalRank"]


def _mteb_tests_dir(patched: Path) -> Path | None:
    for candidate in (os.environ.get(MTEB_TESTS_ENV), patched / "tests"):
        if candidate and all((Path(candidate) / f).is_file() for f in MTEB_TEST_FILES):
            return Path(candidate)
    return None


@pytest.mark.integration
def test_mteb_own_metadata_citation_and_benchmark_tests(patched):
    tests = _mteb_tests_dir(patched)
    if tests is None:
        pytest.skip(
            f"MTEB's {', '.join(MTEB_TEST_FILES)} are not in the sdist of this version (PyPI is all CI has); "
            f"set {MTEB_TESTS_ENV} to the tests/ folder of an MTEB checkout to run them"
        )
    from mteb_evalrank.reports.upstream_export import EXPORTED_TASKS

    script = f"""
import importlib.util, sys
import mteb
def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace('/', '_')[:-3], {str(tests)!r} + '/' + rel)
    module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module); return module
metadata = load('test_tasks/test_metadata.py')
citation = load('test_validate_metadata/test_citation_formatting.py')
for task in mteb.get_tasks(tasks={list(EXPORTED_TASKS)!r}):
    metadata.test_all_metadata_is_filled_and_valid(task)
    citation.test_task_bibtex(task)
    print('ok', task.metadata.name)
citation.test_benchmark_bibtex(mteb.get_benchmark('EvalRank'))
print('ok EvalRank')
"""
    out = _check(_run(patched, "-c", script))
    assert out.split() == ["ok", "EvalRankWord", "ok", "EvalRankSent", "ok", "EvalRank"]
    bench = [str(tests / f) for f in MTEB_TEST_FILES if f.startswith("test_benchmarks/")]
    proc = _run(
        patched, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(patched), *bench
    )
    assert proc.returncode == 0, proc.stdout[-4000:]


@pytest.fixture(scope="module", autouse=True)
def data_sources(tmp_path_factory):
    """Raw sources for every data-loading step, here and in the subprocesses: the real ones
    (``../shared/data/sources``) when present, else the small synthetic ones in ``tests/fixtures/sources``."""
    from conftest import FIXTURE_SOURCES, shared_sources_dir

    real = shared_sources_dir()
    sources = real if (real / "sts_senteval").is_dir() else FIXTURE_SOURCES
    with pytest.MonkeyPatch.context() as mp:
        for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_STR"):
            mp.delenv(var, raising=False)
        mp.setenv("MTEB_EVALRANK_SOURCES", str(sources))
        mp.setenv("MTEB_EVALRANK_CACHE", str(tmp_path_factory.mktemp("cache")))
        mp.setenv("HF_HUB_OFFLINE", "1")
        yield sources


@pytest.fixture(scope="module")
def plugin_glove_result(tmp_path_factory, data_sources):
    """EvalRankSent on GloVe 6B 50d, run by the plugin (folder and its scores)."""
    from mteb_evalrank.cli import main

    folder = tmp_path_factory.mktemp("plugin_glove")
    assert (
        main(["run", "-m", "glove-6b-50d", "-t", "EvalRankSent", "--no-progress", "--output-folder", str(folder)]) == 0
    )
    (path,) = folder.glob("results/*/*/EvalRankSent.json")
    data = json.loads(path.read_text())
    return folder, _headline_and_parts(data["scores"])


def _headline_and_parts(scores: dict) -> dict[str, float]:
    """``{subset: main_score}`` and ``{"<source>": mrr}`` of each part in ``scores_per_source`` (issue 44)."""
    out = {s["hf_subset"]: s["main_score"] for s in scores["test"]}
    for s in scores["test"]:
        out.update({part: v["mrr"] for part, v in s.get("scores_per_source", {}).items()})
    return out


RUN_IN_PATCHED = """
import json, sys
import mteb
from mteb_evalrank.data.resolution import resolve_dataset
from mteb_evalrank.integration.model_specs import load_any_model
assert mteb.__file__.startswith(sys.argv[1]), mteb.__file__
task = mteb.get_task("EvalRankSent")
assert type(task).__module__ == "mteb.tasks.retrieval.eng.evalrank", type(task).__module__
# the plugin's local copy of the same dataset revision (the Hub is not reachable offline)
task.metadata.dataset = {"path": str(resolve_dataset("evalrank-sent").folder), "revision": task.metadata.dataset["revision"]}
res = mteb.evaluate(load_any_model("glove-6b-50d"), [task], cache=mteb.ResultCache(sys.argv[2]), show_progress_bar=False)
scores = res.task_results[0].scores["test"]
out = {s["hf_subset"]: s["main_score"] for s in scores}
for s in scores:
    out.update({part: v["mrr"] for part, v in s.get("scores_per_source", {}).items()})
print(json.dumps(out))
"""


@pytest.mark.integration
def test_patched_mteb_gives_the_plugins_glove_score(patched, plugin_glove_result, tmp_path):
    _, plugin_scores = plugin_glove_result
    out = _check(_run(patched, "-c", RUN_IN_PATCHED, str(patched), str(tmp_path / "res")))
    upstream = json.loads(out.strip().splitlines()[-1])
    assert set(upstream) == set(plugin_scores) == {"default", "stsb", "str"}  # one headline, two parts
    for subset, score in plugin_scores.items():
        assert upstream[subset] == pytest.approx(score, abs=1e-6), subset  # the plugin rounds to 6 decimals


LOAD_IN_PATCHED = """
import json, sys
import mteb
assert mteb.__file__.startswith(sys.argv[1]), mteb.__file__
task = mteb.get_task("EvalRankSent")
res = mteb.ResultCache(sys.argv[2]).load_results(tasks=[task], require_model_meta=False, include_remote=False)
out = {}
for model in res.model_results:
    for tr in model.task_results:
        assert tr.dataset_revision == task.metadata.revision, (tr.dataset_revision, task.metadata.revision)
        scores = tr.validate_and_filter_scores(task).scores["test"]
        out[model.model_name] = {s["hf_subset"]: s["main_score"] for s in scores}
        for s in scores:
            out[model.model_name].update({part: v["mrr"] for part, v in s.get("scores_per_source", {}).items()})
print(json.dumps(out))
"""


@pytest.mark.integration
def test_plugin_results_load_unchanged_in_patched_mteb(patched, plugin_glove_result):
    folder, plugin_scores = plugin_glove_result
    out = _check(_run(patched, "-c", LOAD_IN_PATCHED, str(patched), str(folder)))
    loaded = json.loads(out.strip().splitlines()[-1])
    assert list(loaded.values()) == [plugin_scores]


RESTORE_IN_PATCHED = """
import sys
import mteb
from mteb_evalrank.data.resolution import resolve_dataset, str_source_file
from mteb_evalrank.hub_datasets.evalrank_sent import prepare_for_push
full = mteb.get_task("EvalRankSent")
full.metadata.dataset = {"path": str(resolve_dataset("evalrank-sent").folder), "revision": full.metadata.revision}
full.load_data()
published = prepare_for_push(resolve_dataset("evalrank-sent").folder, __import__("pathlib").Path(sys.argv[1]))
task = mteb.get_task("EvalRankSent")
task.metadata.dataset = {"path": str(published), "revision": task.metadata.revision}
task.str_csv_path = str(str_source_file())
task.load_data()
assert task.texts == full.texts and (task.query_idx == full.query_idx).all() and (task.positive_idx == full.positive_idx).all()
print("restored", len(task.texts))
"""


@pytest.mark.integration
def test_patched_task_restores_str_text_like_the_plugin(patched, tmp_path):
    # a folder name of its own: `datasets` caches a local folder by its name and layout, not its content
    out = _check(_run(patched, "-c", RESTORE_IN_PATCHED, str(tmp_path / f"published-{uuid.uuid4().hex}")))
    assert out.split()[-2] == "restored"
