"""A fake MTEB results folder in the real format, written with MTEB's own objects (helper for tests).

``write_results(folder, models)`` writes, for each ``(name, revision)``, one result file per task of the
``EvalRank`` benchmark with :meth:`mteb.TaskResult.from_task_results` and
:meth:`mteb.ResultCache.save_to_cache` (so ``model_meta.json`` and ``run_settings.jsonl`` are MTEB's
too).  Scores are drawn from a seeded generator; the returned dict holds every main score written, so
tests compute their expectations from what is on disk, not from measured figures.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mteb_evalrank.hub_datasets.sts_senteval.build import STS_SUBSETS
from mteb_evalrank.metrics.heros import SUBSETS as HEROS_EDITS

#: three models of MTEB's model registry, at the revisions MTEB 2.26 pins (MTEB's leaderboard summary,
#: ``BenchmarkResults.get_benchmark_result``, lists registry models only)
MODELS = (
    ("sentence-transformers/all-MiniLM-L6-v2", "8b3219a92973c328a8e22fadcfa821b5dc75636a"),
    ("sentence-transformers/all-mpnet-base-v2", "9a3225965996d404b775526de6dbfe85d3368642"),
    ("intfloat/e5-small-v2", "dca8b1a9dae0d4575df2bf423a5edb485a431236"),
)


def model_meta(name: str, revision: str, dim: int = 32):
    """MTEB's registry meta for a registry model at its pinned revision; a made-up meta otherwise."""
    from mteb.models import ModelMeta
    from mteb.models.get_model_meta import MODEL_REGISTRY

    known = MODEL_REGISTRY.get(name)
    if known is not None and known.revision == revision:
        return known
    return ModelMeta(
        loader=None,
        name=name,
        revision=revision,
        release_date="2024-01-01",
        languages=["eng-Latn"],
        n_parameters=1000,
        n_embedding_parameters=None,
        memory_usage_mb=None,
        max_tokens=128,
        embed_dim=dim,
        license="apache-2.0",
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=["NumPy"],
        similarity_fn_name="cosine",
        use_instructions=False,
        training_datasets=None,
    )


def task_scores(task, rng: np.random.Generator) -> dict[str, dict[str, dict[str, float]]]:
    """``{split: {subset: scores}}`` for every evaluation split and subset of ``task``."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for split in task.eval_splits:
        out[split] = {}
        for subset in task.hf_subsets:
            v = float(np.round(rng.uniform(0.05, 0.95), 6))
            scores = {"main_score": v, str(task.metadata.main_score): v}
            name = task.metadata.name
            if name.startswith("EvalRank"):
                scores.update(
                    mrr=v,
                    l2_mrr=round(v * 0.9, 6),
                    hits_at_1=round(v * 0.8, 6),
                    hits_at_10=min(1.0, round(v * 1.1, 6)),
                    l2_hits_at_1=round(v * 0.7, 6),
                    l2_hits_at_10=min(1.0, round(v * 1.05, 6)),
                )
            if name == "HEROS":  # one headline, the edit types inside it (issue 44)
                edits = {e: float(np.round(rng.uniform(0.05, 0.95), 6)) for e in HEROS_EDITS}
                v = round(edits["synonym"] - edits["negation_main"], 6)
                scores = {"main_score": v, "synonym_minus_negation": v, "negation_minus_synonym": -v}
                scores["scores_per_edit"] = {
                    e: {"normalized_cosine": x, "cosine": x, "main_score": x} for e, x in edits.items()
                }
            if getattr(task, "breakdown_key", None) == "scores_per_source":  # EvalRank, STS12-16: the parts inside
                names = getattr(task, "sources", ()) or STS_SUBSETS.get(getattr(task, "config", ""), ())
                scores["scores_per_source"] = {p: _part(task, rng) for p in names}
            if task.metadata.type in ("Classification", "PairClassification"):
                scores.update(devacc=v)
            out[split][subset] = scores
    return out


def _part(task, rng: np.random.Generator) -> dict[str, float]:
    """The scores of one part (a source dataset, a sub-dataset) of an EvalRank or STS12-16 task."""
    v = float(np.round(rng.uniform(0.05, 0.95), 6))
    part = {"main_score": v, str(task.metadata.main_score): v}
    if task.metadata.name.startswith("EvalRank"):
        part.update(l2_mrr=round(v * 0.9, 6), hits_at_1=round(v * 0.8, 6), l2_hits_at_1=round(v * 0.7, 6))
    return part


def write_results(folder: Path, models=MODELS, *, tasks=None, seed: int = 0) -> dict[tuple[str, str], dict[str, dict]]:
    """Write the results; return ``{(name, revision): {task: {split: {subset: scores}}}}``."""
    import mteb

    from mteb_evalrank.integration.benchmarks import EVALRANK_TASKS

    chosen = [t for t in mteb.get_tasks(tasks=list(EVALRANK_TASKS)) if tasks is None or t.metadata.name in tasks]
    cache = mteb.ResultCache(folder)
    rng = np.random.default_rng(seed)
    written: dict[tuple[str, str], dict[str, dict]] = {}
    for name, revision in models:
        meta = model_meta(name, revision)
        written[(name, revision)] = {}
        for task in chosen:
            scores = task_scores(task, rng)
            tr = mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.5)
            cache.save_to_cache(tr, meta, encode_kwargs={"batch_size": 32})
            written[(name, revision)][task.metadata.name] = scores
    return written


def mteb_task_score(scores: dict[str, dict[str, dict[str, float]]]) -> float:
    """MTEB's task score of what was written (``TaskResult.get_score``): mean main score over splits and subsets."""
    values = [s["main_score"] for subsets in scores.values() for s in subsets.values()]
    return float(np.mean(values))


def task_score(scores: dict[str, dict[str, dict[str, float]]]) -> float:
    """The headline score of what was written: the ``all`` subset's main score when the task has one (results
    from before 0.2), else MTEB's task score, the mean main score over splits and subsets (the plugin's tasks
    have one subset, ``default``)."""
    for split in ("test", *scores):
        if split in scores and "all" in scores[split]:
            return float(scores[split]["all"]["main_score"])
    values = [s["main_score"] for subsets in scores.values() for s in subsets.values()]
    return float(np.mean(values))


def model_folder(root: Path, name: str, revision: str) -> Path:
    return Path(root) / "results" / name.replace("/", "__") / revision
