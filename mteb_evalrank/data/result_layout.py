"""The names MTEB gives the files of a results folder, and the layout of the plugin's score entries
(standard library only, no imports).

The constants of the one results reader, :mod:`mteb_evalrank.data.result_files`, kept apart so that the
file-safety helpers of :mod:`mteb_evalrank.data.files` (which the reader itself uses) can name them too.

**One headline per task.**  MTEB's ``TaskResult.get_score()`` — and with it ``to_dataframe()``, benchmark
summaries, both leaderboards and ``mteb.api`` — averages ``main_score`` over a task's ``hf_subsets``.  A
task whose number is one figure over all its items (EvalRank's MRR over all pairs, SentEval's ``all``
figure of STS12-16) therefore has exactly one subset, ``default`` (MTEB's name for the single subset of
a monolingual task), whose ``main_score`` is that figure.  The parts it is made of (EvalRank's source
datasets, STS12-16's sub-datasets, HEROS's edit types) must not enter MTEB's mean: they are kept in the
same entry under one nested key (:data:`BREAKDOWN_KEYS`), as MTEB's own classification tasks keep
``scores_per_experiment``.  Files written before this layout (``all`` plus one subset per part, or
HEROS's six edit subsets) are converted by ``mteb-evalrank migrate-results``
(:mod:`mteb_evalrank.data.result_migration`).
"""

#: the metadata file MTEB writes beside each model revision's results
MODEL_META = "model_meta.json"
#: the run settings MTEB (>= 2.0) writes beside each model revision's results
RUN_SETTINGS = "run_settings.jsonl"
#: files beside the results that are not results
NOT_RESULTS = frozenset({MODEL_META})

#: MTEB's name of the single subset of a monolingual task: the entry that holds a task's headline
HEADLINE_SUBSET = "default"
#: the subset that held the headline in the layout before one-headline results (``all`` plus its parts)
LEGACY_HEADLINE_SUBSET = "all"

#: the nested key of the headline entry that holds its parts, by task family: part name -> scores of the
#: part.  A score name ``Task/part[:metric]`` reads it.
SOURCE_BREAKDOWN = "scores_per_source"  # EvalRank's source datasets, STS12-16's sub-datasets
EDIT_BREAKDOWN = "scores_per_edit"  # HEROS's edit types
BREAKDOWN_KEYS = (SOURCE_BREAKDOWN, EDIT_BREAKDOWN)

#: keys of a part's scores that belong to the whole run, not to the part: kept once, in the headline entry
#: (MTEB's own keys, the run's settings and data identity, readings computed from every part); a part keeps its
#: own ``main_score`` (the task's main metric over the part), which MTEB never reads
RUN_KEYS = frozenset(
    {
        "hf_subset",
        "languages",
        "mteb_version",
        "num_background",
        "centered",
        "ties",
        "dataset_fingerprint",
        "encode_batch_size",
        "num_unique_texts",
        "baseline",
        "subset_mean_se",
        "negation_minus_synonym",
        "antonym_minus_synonym",
        "typo_minus_synonym",
    }
)


def headline_entry(by_subset: dict) -> dict | None:
    """The entry of ``{hf_subset: entry}`` that holds a task's headline: ``default`` (one-headline layout), ``all``
    (the layout before it), or the only entry; ``None`` for a task of several subsets (MTEB's mean)."""
    for name in (HEADLINE_SUBSET, LEGACY_HEADLINE_SUBSET):
        if name in by_subset:
            return by_subset[name]
    return next(iter(by_subset.values())) if len(by_subset) == 1 else None


def entry_parts(entry: dict):
    """``(breakdown key, part name, part scores)`` for every part of a score entry's breakdown
    (:data:`BREAKDOWN_KEYS`), in file order; a breakdown or part that is not an object is skipped (the shape check
    of :func:`mteb_evalrank.data.result_files.check_result_json` names it)."""
    for key in BREAKDOWN_KEYS:
        parts = entry.get(key)
        if isinstance(parts, dict):
            for name, scores in parts.items():
                if isinstance(scores, dict):
                    yield key, name, scores


def part_scores(entry: dict) -> dict:
    """The scores of one part (a source dataset, a sub-dataset, an edit type) as the breakdown keeps
    them: ``entry`` without :data:`RUN_KEYS`."""
    return {k: v for k, v in entry.items() if k not in RUN_KEYS}
