"""MTEB's own checks of registered tasks, applied to every task the plugin registers.

Users run MTEB's test suite with the plugin installed, and so would a PR that upstreams these tasks.
Two of MTEB's tests look at every registered task; this module applies the same rules to
``mteb_evalrank.integration.registry.plugin_tasks()``, so a task added later is checked without
editing this file:

- ``tests/test_tasks/test_metadata.py::test_all_metadata_is_filled_and_valid`` of
  ``embeddings-benchmark/mteb`` — replicated in :func:`test_all_metadata_is_filled_and_valid`;
- ``tests/test_validate_metadata/test_citation_formatting.py::test_task_bibtex`` with its helper
  ``format_bibtex`` — replicated in :func:`format_bibtex` and :func:`test_task_bibtex`.

Copied from the repository's main branch at a905523d0 (2026-08-22); the installed mteb is 2.26.x,
whose release tag the mirror lacks.  ``test_citation_formatting.py`` has had the same logic since
v2.0.0, and ``test_metadata.py`` since 2026-05-16 ("Compute missing statistics", #4672).  When
either upstream file changes, update the copy here.

The remaining tests are the plugin's own rules behind the first check: each task's descriptive
statistics ship with the package (``mteb_evalrank/tasks/descriptive_stats/<TaskName>.json``, written
by ``mteb-evalrank descriptive-stats``) and computing them never writes into the installed package.
"""

from __future__ import annotations

import json

import mteb
import pytest
from mteb.abstasks import AbsTask, AbsTaskRetrieval

from mteb_evalrank.integration.descriptive_stats import PROVISIONAL_KEY, compute_descriptive_stats
from mteb_evalrank.integration.registry import plugin_tasks
from mteb_evalrank.tasks._base import SHIPPED_STATS_DIR, PluginTaskMetadata, ShippedStatsMixin

TASK_CLASSES = plugin_tasks()
IDS = [cls.metadata.name for cls in TASK_CLASSES]


@pytest.fixture(params=TASK_CLASSES, ids=IDS)
def task(request) -> AbsTask:
    return request.param()


@pytest.mark.filterwarnings("ignore:The task .* is currently in beta")
def test_the_plugin_registers_tasks_that_mteb_lists():
    assert TASK_CLASSES, "no plugin task registered: importing mteb should register them (start-up hook)"
    # MTEB's tests parametrise over these two calls; every plugin task must be in both
    everything = mteb.get_tasks(exclude_superseded=False, exclude_aggregate=False, exclude_beta=False)
    default = mteb.get_tasks()
    for listed in (everything, default):
        names = {t.metadata.name for t in listed}
        assert set(IDS) <= names, f"not listed by mteb.get_tasks: {sorted(set(IDS) - names)}"


# --- MTEB: tests/test_tasks/test_metadata.py ---------------------------------------------------------
# Historic datasets without filled metadata (upstream: empty, "Do NOT add new datasets to this list").
_HISTORIC_DATASETS: list[str] = []


def test_all_metadata_is_filled_and_valid(task: AbsTask):
    """Upstream ``test_all_metadata_is_filled_and_valid``, rule for rule."""
    # --- test metadata is filled and valid ---
    if task.metadata.name not in _HISTORIC_DATASETS:
        task.metadata._validate_metadata()
        assert task.metadata.is_filled(), f"Metadata for {task.metadata.name} is not filled"
    else:
        assert not task.metadata.is_filled(), (
            f"Metadata for {task.metadata.name} is stated as not filled (historic), but it is filled, "
            "please remove the dataset from the historic list."
        )

    # --- Check that no dataset trusts remote code ---
    assert task.metadata.dataset.get("trust_remote_code", False) is False, (
        f"Dataset {task.metadata.name} should not trust remote code"
    )

    # --- Check simplifiedtasktypes is valid ---
    assert isinstance(task.metadata.simplified_task_type, str)

    # --- Test is descriptive stats are present for all datasets ---
    if task.is_aggregate:  # aggregate tasks do not have descriptive stats
        assert set(task.metadata.hf_subsets_to_langscripts.keys()) == {"default"}, (
            f"Aggregate task {task.metadata.name} has incorrect eval_langs, only a default subset is allowed"
        )
        return

    assert task.metadata.descriptive_stats is not None, (
        f"Dataset {task.metadata.name} should have descriptive stats. You can add metadata to your task by "
        "running `YourTask().calculate_descriptive_statistics()`"
        " (plugin: `mteb-evalrank descriptive-stats TASK`, then ship tasks/descriptive_stats/TASK.json)"
    )
    assert task.metadata.n_samples is not None

    if task.metadata.prompt is not None and isinstance(task.metadata.prompt, dict):
        if not (isinstance(task, AbsTaskRetrieval) or task.metadata.name in ["TERRa.V2"]):
            raise ValueError(
                f"Task {task.metadata.name} has a dict prompt, but it should be a string. "
                "Please check the metadata of the task."
            )


# --- MTEB: tests/test_validate_metadata/test_citation_formatting.py ---------------------------------
def format_bibtex(bibtex_str: str) -> str | None:
    """Upstream ``format_bibtex``: the citation as bibtexparser 1.x writes it (fields sorted)."""
    bibtexparser = pytest.importorskip("bibtexparser", reason="bibtexparser (test extra) is not installed")
    from bibtexparser.bwriter import BibTexWriter

    parser = bibtexparser.bparser.BibTexParser(
        common_strings=True, ignore_nonstandard_types=False, interpolate_strings=False
    )

    bib_database = bibtexparser.loads(bibtex_str, parser)
    if not bib_database.entries:
        return None

    writer = BibTexWriter()
    writer.indent = "  "
    writer.comma_first = False
    writer.add_trailing_comma = True

    return writer.write(bib_database).strip()


def test_task_bibtex(task: AbsTask):
    """Upstream ``test_task_bibtex``; on failure, prints the text the citation must be."""
    task_name = task.metadata.name
    bibtex_citation = task.metadata.bibtex_citation

    if not bibtex_citation or not bibtex_citation.strip():
        pytest.skip(f"Task {task_name} has no bibtex_citation")
    bibtex_citation = bibtex_citation.strip()

    formatted_bibtex = format_bibtex(bibtex_citation)
    assert formatted_bibtex is not None and formatted_bibtex == bibtex_citation, (
        f"Wrong BibTeX citation formatting for task {task_name}; expected:\n{formatted_bibtex}"
    )


# --- the plugin's rules: statistics ship with the package and are never written into it ----------------
def test_statistics_are_package_data_and_computing_them_never_writes_into_it(task: AbsTask):
    name = task.metadata.name
    assert isinstance(task.metadata, PluginTaskMetadata), (
        f"{name}: use mteb_evalrank.tasks._base.PluginTaskMetadata (the stock path is inside the mteb package)"
    )
    assert task.metadata.descriptive_stat_path == SHIPPED_STATS_DIR / f"{name}.json"
    assert isinstance(task, ShippedStatsMixin), (
        f"{name}: derive from ShippedStatsMixin first, or calculate_descriptive_statistics() writes into the package"
    )


def test_shipped_statistics_have_mteb_shape(task: AbsTask):
    """One entry per eval split with ``num_samples``; per subset too when the task has named subsets
    (the layout ``AbsTask.calculate_descriptive_statistics`` writes)."""
    stats = task.metadata.descriptive_stats
    assert stats is not None, f"missing {task.metadata.descriptive_stat_path}"
    assert set(stats) == set(task.metadata.eval_splits)
    for split, entry in stats.items():
        assert "num_samples" in entry, f"{task.metadata.name} {split}: no num_samples"
        if task.metadata.is_multilingual:
            per_subset = entry.get("hf_subset_descriptive_stats", {})
            assert set(per_subset) == set(task.metadata.hf_subsets), f"{task.metadata.name} {split}: subsets"
            assert all("num_samples" in s for s in per_subset.values())


def test_shipped_statistics_were_computed_from_the_data(task: AbsTask):
    """A file written by hand because the data was unavailable says so (``provisional``); it is
    reported here as an expected failure until `mteb-evalrank descriptive-stats TASK` replaces it."""
    stats = task.metadata.descriptive_stats or {}
    reasons = [entry[PROVISIONAL_KEY] for entry in stats.values() if PROVISIONAL_KEY in entry]
    if reasons:
        pytest.xfail(f"{task.metadata.name}: shipped statistics are provisional: {reasons[0]}")
    assert all(entry.get("num_samples") is not None for entry in stats.values())


def test_no_orphan_statistics_files():
    orphans = {p.stem for p in SHIPPED_STATS_DIR.glob("*.json")} - set(IDS)
    assert not orphans, f"statistics of no registered task in {SHIPPED_STATS_DIR}: {sorted(orphans)}"


@pytest.mark.integration
def test_computing_statistics_writes_to_the_plugin_cache(monkeypatch, tmp_path, fixture_sources):
    from mteb_evalrank.tasks import EvalRankWord

    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    shipped_before = (SHIPPED_STATS_DIR / "EvalRankWord.json").read_bytes()

    task = EvalRankWord()
    assert task.calculate_descriptive_statistics() == task.metadata.descriptive_stats  # shipped, no loading
    assert not task.data_loaded
    stats = task.calculate_descriptive_statistics(overwrite_results=True)  # the fixture data
    written = tmp_path / "cache" / "descriptive_stats" / "EvalRankWord.json"
    assert json.loads(written.read_text(encoding="utf-8")) == stats
    assert stats != task.metadata.descriptive_stats
    assert (SHIPPED_STATS_DIR / "EvalRankWord.json").read_bytes() == shipped_before
    assert task.calculate_descriptive_statistics() == task.metadata.descriptive_stats


@pytest.mark.integration
def test_shipped_statistics_match_the_real_data(task: AbsTask, monkeypatch, tmp_path, shared_sources):
    """With the real sources (../shared/data), recomputing gives exactly the shipped file."""
    import huggingface_hub.constants

    for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_N2O_CORPUS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(shared_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)  # local data or nothing: fail fast
    from mteb_evalrank.errors import DataNotFoundError

    try:
        stats = compute_descriptive_stats(task)
    except DataNotFoundError as exc:
        pytest.skip(f"{task.metadata.name}: real data not available here: {exc}")
    finally:
        if task.data_loaded:
            task.unload_data()
    assert json.loads(json.dumps(stats)) == task.metadata.descriptive_stats, (
        f"{task.metadata.descriptive_stat_path} is out of date: run `mteb-evalrank descriptive-stats "
        f"{task.metadata.name}` with MTEB_EVALRANK_SOURCES pointing at the real sources"
    )


def test_provisional_statistics_are_recomputed_into_the_cache_and_regeneration_writes_out(monkeypatch, tmp_path):
    """HEROS ships provisional statistics: asking for them computes the real ones (into the cache);
    `descriptive-stats --out DIR` writes MTEB-format files there and leaves the shipped ones alone."""
    from mteb_evalrank.hub_datasets.heros import EXPECTED_HEADER
    from mteb_evalrank.integration.descriptive_stats import regenerate_descriptive_stats
    from mteb_evalrank.tasks import HEROS

    rows = [
        ["i am happy", "i am glad", "i am sad", "i am not happy", "i am blue", "i am hapy", "i am not sad"],
        [
            "the cat sat",
            "the cat sits",
            "the cat stood",
            "the cat did not sit",
            "the dog sat",
            "teh cat sat",
            "the cat did not stand",
        ],
    ]
    tsv = tmp_path / "heros.tsv"
    tsv.write_text("\n".join(["\t".join(EXPECTED_HEADER)] + ["\t".join(r) for r in rows]) + "\n", encoding="utf-8")
    monkeypatch.setenv("MTEB_EVALRANK_HEROS", str(tsv))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    shipped_before = (SHIPPED_STATS_DIR / "HEROS.json").read_bytes()

    stats = HEROS().calculate_descriptive_statistics()
    assert stats["test"]["num_samples"] == 2 * 6
    assert "hf_subset_descriptive_stats" not in stats["test"]  # one subset (issue 44): no per-subset entries
    assert (tmp_path / "cache" / "descriptive_stats" / "HEROS.json").is_file()

    [outcome] = regenerate_descriptive_stats(["HEROS"], out=tmp_path / "out")
    assert outcome.ok and outcome.path == tmp_path / "out" / "HEROS.json"
    assert json.loads(outcome.path.read_text(encoding="utf-8")) == stats
    assert (SHIPPED_STATS_DIR / "HEROS.json").read_bytes() == shipped_before
