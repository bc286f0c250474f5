"""The plugin's MTEB benchmarks: ``EvalRank`` (every plugin task) and ``EvalRank(study)``.

MTEB 2.26 finds benchmarks through ``mteb.benchmarks.get_benchmark._build_registry``, an
``lru_cache``-d function that collects the :class:`mteb.Benchmark` objects defined in
``mteb.benchmarks.benchmarks``; there is no plugin hook.  :func:`register_benchmarks` (called by
:mod:`mteb_evalrank.integration.registry` when ``mteb`` is imported) wraps that function and its alias
twin so the plugin's benchmarks are added when MTEB first builds its registry.  Nothing is built
at ``import mteb``: the task objects are created on the first ``get_benchmark``/``get_benchmarks``.
After that, ``mteb.get_benchmark("EvalRank")``, ``mteb.get_benchmarks()``,
``mteb run -b EvalRank`` and ``ResultCache.load_results(tasks="EvalRank")`` all see them.

Benchmarks:

- ``EvalRank`` — the whole suite: EvalRank word and sentence ranking (Wang et al., 2022), N2O's needle
  test (Lin & Smith, 2019), the similarity baselines (SentEval STS12-16, STS-B, SICK-R, STR) and the
  SentEval downstream tasks plus SciCite.
- ``EvalRank(study)`` — the scored tasks of the correlation study (EvalRank §5-6, Tables 3/6):
  :data:`mteb_evalrank.integration.study.STUDY_TASKS` (no N2O: its score is not part of the study).

Neither holds a ``diagnostic`` task (HEROS): a benchmark's summary is a mean of its tasks' scores, each read
as "higher is better", and HEROS's readings are a profile of a model, not a quality (its headline,
``synonym_minus_negation``, is shown per task, never averaged; ``mteb-evalrank heros-report`` shows the profile).
Every task a benchmark holds has one ``main_score`` where higher is better: MRR (EvalRank, N2O's needle),
Spearman correlation (similarity baselines), accuracy (downstream).
- ``WordSim`` — the 13 word-similarity tasks (WS-353-All ... VERB-143), scored as the EvalRank toolkit
  scores word vectors (:mod:`mteb_evalrank.metrics.word_similarity`).

Leaderboard columns.  ``EvalRank`` and ``EvalRank(study)`` mix task kinds that MTEB's task types do not
separate (HEROS is typed STS, N2O Retrieval), so instead of MTEB's default task-type means their summary shows
``Mean (Task)`` and one column per group of :data:`GROUPS` (MTEB's ``CustomGrouping`` ``Evaluation``: EvalRank
word, EvalRank sentence, N2O, the STS and word-similarity baselines, downstream).  ``WordSim`` (one task
type) keeps MTEB's defaults.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION
from mteb_evalrank.hub_datasets.heros.build import HEROS_CITATION
from mteb_evalrank.hub_datasets.senteval_downstream.build import SENTEVAL_CITATION
from mteb_evalrank.hub_datasets.word_similarity import SETS as WORDSIM_SETS
from mteb_evalrank.hub_datasets.word_similarity import TASK_NAMES as WORDSIM_TASKS
from mteb_evalrank.hub_datasets.word_similarity.build import FARUQUI_CITATION
from mteb_evalrank.integration.study import (
    DOWNSTREAM_TASKS,
    OTHER_WORD_SIMILARITY_TASKS,
    SIMILARITY_BASELINES,
    STUDY_TASKS,
    WORD_SIMILARITY_TASKS,
)
from mteb_evalrank.integration.task_lookup import ROLES, plugin_task_names


def _suite_order() -> tuple[str, ...]:
    """Every task of the plugin, by role (the order of ``tasks._base.ROLES``: intrinsic, diagnostic, comparison,
    baselines, other similarity, downstream), each role in registration order."""
    return tuple(t for role in ROLES for t in plugin_task_names(role=role))


#: every task of the plugin, in the order of the suite: EvalRank, HEROS, N2O, similarity baselines, word
#: similarity, downstream (derived from each task's declared role)
EVALRANK_TASKS: tuple[str, ...] = _suite_order()

EVALRANK_NAME = "EvalRank"
STUDY_NAME = "EvalRank(study)"
WORDSIM_NAME = "WordSim"

#: One paragraph per paper: what the benchmark takes from it and where to read about it.
PAPERS: dict[str, dict[str, str]] = {
    "EvalRank": {
        "reference": "https://aclanthology.org/2022.acl-long.419",
        "description": "EvalRank (Wang, Kuo & Li, ACL 2022, 'Just Rank'): word- and sentence-level ranking "
        "evaluation. For each positive pair (a highly rated similarity pair), the rank of the partner among the "
        "whole vocabulary / sentence pool, reported as MRR and Hits@k with cosine and l2. Tasks EvalRankWord, "
        "EvalRankSent.",
    },
    "HEROS": {
        "reference": "https://huggingface.co/datasets/dcml0714/Heros",
        "description": "HEROS (Chiang, Chuang, Glass & Lee, RepL4NLP 2023): minimal pairs (synonym, antonym, "
        "negation, random word, typo edits); normalised cosine per edit type shows what a sentence encoder is "
        "blind to. Task HEROS.",
    },
    "N2O": {
        "reference": "https://arxiv.org/abs/1909.10724",
        "description": "N2O (Lin & Smith, 2019, 'Situating Sentence Embedders with Nearest Neighbor Overlap'): "
        "label-free nearest-neighbour comparison of embedders; the task scores the needle test (MRR of a "
        "paraphrase among a corpus) and stores neighbour lists for `mteb-evalrank n2o-compare`. Task N2O.",
    },
    "SentEval": {
        "reference": "https://aclanthology.org/L18-1269",
        "description": "SentEval (Conneau & Kiela, LREC 2018): the similarity baselines STS12-16, STS-B, SICK-R "
        "(and STR, Abdalla et al., EACL 2023) and the downstream transfer tasks MR, CR, SUBJ, MPQA, SST-2, SST-5, "
        "TREC, MRPC, SICK-E with SentEval's protocol, plus SciCite as in the EvalRank toolkit.",
    },
}


#: the name of the plugin's leaderboard grouping (MTEB's ``CustomGrouping``): its summary columns are
#: ``__cg__Evaluation::<label>`` in MTEB's tables, ``scoresByCustomGroup["Evaluation"]`` in MTEB's API
GROUPING_NAME = "Evaluation"

#: label, tooltip and tasks of each group of :data:`GROUPING_NAME`, in column order.  A benchmark gets the groups
#: whose tasks it has (a group's column is the mean of the scores of its tasks that some model has; MTEB leaves it
#: empty for a model that lacks one of those).  These replace MTEB's task-type means, which would average N2O
#: (typed Retrieval) with EvalRank.
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("EvalRank word", "EvalRank word level: MRR of the partner word among the vocabulary", ("EvalRankWord",)),
    ("EvalRank sentence", "EvalRank sentence level: MRR of the partner sentence among the pool", ("EvalRankSent",)),
    ("N2O", "N2O needle test: MRR of the paraphrase among the corpus", ("N2O",)),
    (
        "Baselines: STS",
        "Sentence-similarity baselines (Spearman): STS12-16, STS-B, SICK-R, STR",
        tuple(SIMILARITY_BASELINES),
    ),
    (
        "Baselines: word similarity",
        "Word-similarity baselines (Spearman): the 13 sets of the EvalRank toolkit",
        (*WORD_SIMILARITY_TASKS, *OTHER_WORD_SIMILARITY_TASKS),
    ),
    ("Downstream", "SentEval downstream transfer tasks and SciCite (accuracy)", tuple(DOWNSTREAM_TASKS)),
)


def evaluation_grouping(tasks: list[Any]):
    """MTEB's :class:`~mteb.benchmarks.benchmark.CustomGrouping` :data:`GROUPING_NAME` over ``tasks`` (task
    objects of one benchmark): one :class:`CustomGroup` per entry of :data:`GROUPS` whose tasks are all in
    ``tasks``; every task of ``tasks`` must fall in one group."""
    from mteb.benchmarks.benchmark import CustomGroup, CustomGrouping

    by_name = {t.metadata.name: t for t in tasks}
    groups = [
        CustomGroup(label=label, description=description, tasks=[by_name[n] for n in names])
        for label, description, names in GROUPS
        if all(n in by_name for n in names)
    ]
    grouped = {t.metadata.name for g in groups for t in g.tasks}
    if set(by_name) - grouped:  # pragma: no cover - a task added to a benchmark but not to GROUPS
        raise ValueError(f"tasks in no leaderboard group: {sorted(set(by_name) - grouped)}")
    return CustomGrouping(name=GROUPING_NAME, groups=tuple(groups))


def _aggregations(tasks: list[Any]) -> tuple[Any, ...]:
    """The summary columns of a benchmark of mixed task kinds: ``Mean (Task)`` (the rank) and the groups."""
    from mteb.benchmarks.benchmark import BenchmarkAggregation

    return (BenchmarkAggregation.MEAN_TASK, evaluation_grouping(tasks))


def _n2o_citation(tasks: list[Any]) -> str | None:
    """N2O's BibTeX, as the N2O task declares it (this layer does not import the task modules)."""
    for task in tasks:
        if task.metadata.name == "N2O":
            return task.metadata.bibtex_citation
    return None


def _citation(*entries: str | None) -> str:
    return "\n\n".join(dict.fromkeys(e.strip() for e in entries if e))


def build_benchmarks() -> list[Any]:
    """The plugin's :class:`mteb.Benchmark` objects (the plugin's tasks must be registered)."""
    import mteb

    from mteb_evalrank.integration.task_lookup import get_tasks_or_explain

    diagnostic = set(plugin_task_names(role="diagnostic"))  # in no mean (module docstring)
    suite = [t for t in get_tasks_or_explain(list(EVALRANK_TASKS)) if t.metadata.name not in diagnostic]
    by_name = {t.metadata.name: t for t in suite}
    n2o = _n2o_citation(suite)
    intro = (
        "Intrinsic evaluations of text embeddings that predict downstream quality, with the baselines and "
        "downstream tasks needed to check that claim. Main scores, higher is better for each: MRR (EvalRank), "
        "needle MRR (N2O), Spearman correlation (similarity), accuracy (downstream). HEROS, a diagnostic profile "
        "rather than a score, is run on its own (task HEROS) and is in no mean. Papers:\n- "
    )
    evalrank = mteb.Benchmark(
        name=EVALRANK_NAME,
        aliases=("EvalRank(all)",),
        display_name="EvalRank suite",
        tasks=suite,
        description=intro + "\n- ".join(p["description"] + f" ({p['reference']})" for p in PAPERS.values()),
        reference=PAPERS["EvalRank"]["reference"],
        citation=_citation(EVALRANK_CITATION, HEROS_CITATION, n2o, SENTEVAL_CITATION),
        contacts=None,
        aggregations=_aggregations(suite),
    )
    study_tasks = [by_name[name] for name in STUDY_TASKS if name not in diagnostic]
    study = mteb.Benchmark(
        name=STUDY_NAME,
        display_name="EvalRank correlation study",
        tasks=study_tasks,
        aggregations=_aggregations(study_tasks),
        description="The task list of the EvalRank correlation study (Wang et al., 2022, §5-6, Tables 3, 6, 10): "
        "intrinsic scores (EvalRankWord, EvalRankSent, STS12-16, STS-B, SICK-R, STR; the study also runs the HEROS "
        "diagnostic, which is in no mean) and the downstream "
        "scores they should predict (MR, CR, SUBJ, MPQA, SST-2, SST-5, TREC, MRPC, SICK-E, SciCite). Run it for "
        "many models (`mteb-evalrank study`), then correlate intrinsic with downstream scores across models.\n- "
        + "\n- ".join(
            PAPERS[k]["description"] + f" ({PAPERS[k]['reference']})" for k in ("EvalRank", "HEROS", "SentEval")
        ),
        reference=PAPERS["EvalRank"]["reference"],
        citation=_citation(EVALRANK_CITATION, HEROS_CITATION, SENTEVAL_CITATION),
    )
    wordsim = mteb.Benchmark(
        name=WORDSIM_NAME,
        display_name="Word similarity (EvalRank toolkit)",
        tasks=[by_name[name] for name in WORDSIM_TASKS],
        description="The 13 English word-similarity sets of the EvalRank toolkit: WS-353-All/Rel/Sim, RW-STANFORD, "
        "MEN-TR-3K, MTurk-287, MTurk-771, SimLex-999, SimVerb-3500 (the nine baselines of the EvalRank paper, "
        "Table 3), MC-30, RG-65, YP-130 and VERB-143. Main score: Spearman correlation of the cosine of the two "
        "word embeddings with the human scores, computed as the toolkit does (words lowercased, embeddings "
        "mean-centred, out-of-vocabulary words of word-vector models replaced by the mean normalised vector and "
        "counted). Pearson, Kendall and the l2 reading are stored too.",
        reference=PAPERS["EvalRank"]["reference"],
        citation=_citation(*(c for s in WORDSIM_SETS for c in s.citations), FARUQUI_CITATION, EVALRANK_CITATION),
    )
    return [evalrank, study, wordsim]


@functools.lru_cache(maxsize=1)
def plugin_benchmarks() -> dict[str, Any]:
    """Name → benchmark, built once."""
    return {b.name: b for b in build_benchmarks()}


def register_benchmarks() -> None:
    """Make MTEB's benchmark registry (and its alias registry) include the plugin's benchmarks.

    Idempotent.  The original functions stay reachable as ``__wrapped__``; ``cache_clear`` clears both.
    """
    module = importlib.import_module("mteb.benchmarks.get_benchmark")
    if getattr(module._build_registry, "__mteb_evalrank__", False):
        return
    original, original_aliases = module._build_registry, module._build_aliases_registry

    @functools.lru_cache
    def _build_registry() -> dict[str, Any]:
        registry = dict(original())
        for name, bench in plugin_benchmarks().items():
            registry.setdefault(name, bench)  # never shadow a benchmark MTEB itself defines
        return registry

    @functools.lru_cache
    def _build_aliases_registry() -> dict[str, Any]:
        aliases = dict(original_aliases())
        builtin = original()
        for bench in plugin_benchmarks().values():
            for alias in bench.aliases or ():
                if alias not in builtin:
                    aliases.setdefault(alias, bench)
        return aliases

    for wrapper, wrapped in ((_build_registry, original), (_build_aliases_registry, original_aliases)):
        wrapper.__mteb_evalrank__ = True  # type: ignore[attr-defined]
        wrapper.__wrapped__ = wrapped
    module._build_registry = _build_registry  # type: ignore[attr-defined]
    module._build_aliases_registry = _build_aliases_registry  # type: ignore[attr-defined]
