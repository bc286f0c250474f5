"""Compare embedders by nearest-neighbour overlap: ``mteb-evalrank n2o-compare`` and ``mteb-evalrank n2o``.

- ``n2o-compare RESULTS_DIR`` reads every ``N2O.json`` written by the ``N2O`` task
  (``RESULTS_DIR/results/<org>__<model>/<revision>/N2O.json``), checks that all were computed on the
  same corpus with the same query samples, and prints/writes the N2O matrix, a heatmap and the §6
  robustness figures — no model is loaded.
- ``n2o MODEL_A MODEL_B ... --corpus FILE`` runs the whole thing directly on a user's corpus (one
  sentence per line), with corpus embeddings cached on disk (:mod:`mteb_evalrank.data.embedding_cache`).

Module import stays light (numpy only); matplotlib, tqdm, models and mteb are imported inside functions.
"""

from __future__ import annotations

import csv
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.data.files import atomic_target, figure_file, output_file
from mteb_evalrank.errors import DirectionlessRowsError, InputError
from mteb_evalrank.metrics.neighbors import N2OMatrix, NeighborSet, n2o_matrix, robustness
from mteb_evalrank.reports.results_reader import revision_labels
from mteb_evalrank.results.record import UNREADABLE, ResultRecord, read_records

logger = logging.getLogger(__name__)

TASK = "N2O"
TASK_FILE = f"{TASK}.json"


# --- reading task results ----------------------------------------------------------------------
def load_results(results_dir: Path, *, split: str = "test") -> list[NeighborSet]:
    """One :class:`NeighborSet` per ``N2O.json`` under ``results_dir`` (sorted by model name; a model with
    several revisions is kept apart as ``model@revision``).  Files, names and revisions are read by the one
    reader, :func:`mteb_evalrank.results.record.read_records`."""
    results_dir = Path(results_dir)
    if not results_dir.is_dir():
        raise InputError(f"{results_dir} is not a directory.")
    read = read_records(results_dir, task=TASK, mteb_check=False)  # the one reader
    if read.skipped:
        path, reason = read.skipped[0]
        _refuse_empty(Path(path))
        raise InputError(f"{path}: {reason.replace(UNREADABLE, 'not an N2O task result (', 1)}")
    files = read.files()
    if not files:
        raise InputError(
            f"no {TASK_FILE} under {results_dir}; run the N2O task first "
            "(mteb-evalrank run -t N2O -m MODEL --output-folder RESULTS_DIR)."
        )
    names = revision_labels((records[0].label, records[0].revision) for records in files.values())
    sets = [_neighbor_set(name, path, split, records) for name, (path, records) in zip(names, files.items())]
    return _shared_samples(sorted(sets, key=lambda s: s.name))


def _shared_samples(sets: list[NeighborSet]) -> list[NeighborSet]:
    """Results of one corpus, seed and query count with more or fewer query samples (``--samples 2`` and ``1``)
    share their first samples: sample ``i`` is drawn from the seed and ``i`` alone
    (:func:`~mteb_evalrank.metrics.neighbors.sample_queries`).  They are compared over the samples they share, with
    one warning saying how many each has; anything else is left to
    :func:`~mteb_evalrank.metrics.neighbors.check_compatible`, which names what differs."""
    import dataclasses
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    counts = [s.samples for s in sets]
    if len(set(counts)) < 2:
        return sets
    n = min(counts)
    ref = sets[0]
    same = all(
        s.corpus_fingerprint == ref.corpus_fingerprint
        and s.corpus_size == ref.corpus_size
        and s.seed == ref.seed
        and s.query_ids.shape[1] == ref.query_ids.shape[1]
        and np.array_equal(s.query_ids[:n], ref.query_ids[:n])
        for s in sets[1:]
    )
    if not same or n < 1:
        return sets
    each = ", ".join(f"{s.name} has {s.samples}" for s in sets)
    warnings.warn(
        EvalRankWarning(
            f"the results hold different numbers of query samples ({each}); N2O is compared over the {n} sample(s) "
            f"they share (the same queries, seed {ref.seed})."
        ),
        stacklevel=3,
    )
    return [dataclasses.replace(s, ids=s.ids[:n], query_ids=s.query_ids[:n]) for s in sets]


def _refuse_empty(path: Path) -> None:
    """An ``N2O.json`` of zero bytes is named as such (an interrupted write), not as a JSON error."""
    if path.is_file() and path.stat().st_size == 0:
        raise InputError(f"{path} is empty (0 bytes): not an N2O task result; run N2O again.")


def _neighbor_set(name: str, path: Path, split: str, records: list[ResultRecord] | None = None) -> NeighborSet:
    """The neighbour lists of the ``N2O.json`` ``path`` (its records, read by the one reader when not given)."""
    if records is None:
        _refuse_empty(path)
        read = read_records(path, task=TASK, mteb_check=False)
        if read.skipped:
            raise InputError(f"{path}: {read.skipped[0][1]}")
        records = read.records
    entries = [r.entry for r in records if r.split == split]
    if not entries:
        raise InputError(f"{path}: not an N2O task result (KeyError: {split!r}).")
    if not isinstance(entries, list):
        raise InputError(f"{path}: key scores.{split} is not a list of score entries.")
    listed = [e for e in entries if isinstance(e, dict) and "neighbors" in e]
    if not listed:
        raise InputError(f"{path}: no neighbour lists in split {split!r}.")
    if len(listed) > 1:  # which of them is the model's? the first was taken without a word
        raise InputError(
            f"{path}: split {split!r} holds {len(listed)} entries with neighbour lists; an N2O result holds one "
            "(run N2O again, or keep one entry)."
        )
    entry = listed[0]
    for key in ("neighbors", "query_ids", "corpus_fingerprint", "corpus_size"):
        if key not in entry:
            raise InputError(f"{path}: key scores.{split}[].{key} is missing.")
    try:  # whole numbers only: 0.5 or true is no corpus position (np.int64 would truncate it silently)
        ids = np.asarray(entry["neighbors"])
        query_ids = np.asarray(entry["query_ids"])
        size = entry["corpus_size"]
        for key, value in (("neighbors", ids), ("query_ids", query_ids)):
            if value.size and value.dtype.kind not in "iu":
                raise TypeError(f"{key} holds {value.dtype.name} values")
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError("corpus_size is not a whole number")
        ids, query_ids = ids.astype(np.int64), query_ids.astype(np.int64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InputError(
            f"{path}: key scores.{split}[].neighbors/query_ids/corpus_size: not whole numbers of the "
            f"expected shape ({exc})."
        ) from None
    # shapes: neighbours (samples, queries, k), query ids (samples, queries), every id a corpus position
    if ids.ndim != 3 or query_ids.ndim != 2 or ids.shape[:2] != query_ids.shape or ids.shape[2] < 1:
        raise InputError(
            f"{path}: key scores.{split}[].neighbors has shape {ids.shape} and query_ids "
            f"{query_ids.shape}; expected (samples, queries, k) and (samples, queries)."
        )
    if size < 1 or ids.min() < 0 or ids.max() >= size or query_ids.min() < 0 or query_ids.max() >= size:
        raise InputError(f"{path}: key scores.{split}[].neighbors holds ids outside the corpus of {size} sentences.")
    _check_neighbour_lists(path, split, entry, ids, query_ids)
    return NeighborSet(
        name=name,
        ids=ids,
        query_ids=query_ids,
        corpus_fingerprint=str(entry["corpus_fingerprint"]),
        corpus_size=size,
        seed=entry.get("seed"),
        meta={k: entry.get(k) for k in ("needle_mrr", "needle_top1", "needle_top5", "search", "corpus_origin")},
    )


def _check_neighbour_lists(path: Path, split: str, entry: dict, ids: np.ndarray, query_ids: np.ndarray) -> None:
    """What the N2O task writes, checked as one rule: the stored counts (``k``/``k_max``, ``n_queries``,
    ``samples``: whole numbers ≥ 1; ``seed`` ≥ 0) match the lists, a query is never its own neighbour (the task
    leaves it out), and no neighbour is listed twice for one query."""
    where = f"{path}: key scores.{split}[]"
    shape = {"k": ids.shape[2], "k_max": ids.shape[2], "n_queries": ids.shape[1], "samples": ids.shape[0]}
    for key in ("k", "k_max", "n_queries", "samples", "seed"):
        if key not in entry or entry[key] is None:
            continue
        value = entry[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < (0 if key == "seed" else 1):
            least = 0 if key == "seed" else 1
            raise InputError(f"{where}.{key} is {value!r}, not a whole number ≥ {least}.")
        if key in shape and value != shape[key]:
            raise InputError(
                f"{where}.{key} is {value}, but the neighbour lists hold {shape[key]} "
                f"(neighbors has shape {ids.shape}); the file was edited or cut."
            )
    own = np.argwhere(ids == query_ids[:, :, None])
    if len(own):
        s, q, _ = own[0]
        raise InputError(
            f"{where}.neighbors: query {query_ids[s, q]} (sample {s}) is listed as its own neighbour; "
            "N2O leaves the query out of its neighbours."
        )
    ordered = np.sort(ids, axis=2)
    twice = np.argwhere(ordered[:, :, 1:] == ordered[:, :, :-1])
    if len(twice):
        s, q, j = twice[0]
        raise InputError(
            f"{where}.neighbors: neighbour {ordered[s, q, j]} is listed twice for query {query_ids[s, q]} "
            f"(sample {s}); each neighbour is listed once."
        )


# --- output ------------------------------------------------------------------------------------
def format_matrix(result: N2OMatrix) -> str:
    """The mean N2O matrix as a text table, models numbered in the header."""
    names = result.names
    width = max(8, *(len(n) for n in names))
    short = [f"[{i}]" for i in range(len(names))]
    lines = [" " * (width + 6) + "".join(f"{s:>7}" for s in short)]
    for i, name in enumerate(names):
        lines.append(f"{short[i]:>5} {name:<{width}}" + "".join(f"{v:7.3f}" for v in result.mean[i]))
    return "\n".join(lines)


def write_csv(path: Path, result: N2OMatrix) -> None:
    """Long format: model_a, model_b, k, n2o (mean over samples), std, one column per sample."""
    path = output_file(Path(path), what="CSV file")
    samples = result.per_sample.shape[0]
    with atomic_target(path) as tmp, tmp.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["model_a", "model_b", "k", "n2o", "std", *(f"sample_{s}" for s in range(samples))])
        for i, a in enumerate(result.names):
            for j, b in enumerate(result.names):
                w.writerow(
                    [a, b, result.k, f"{result.mean[i, j]:.6f}", f"{result.std[i, j]:.6f}"]
                    + [f"{result.per_sample[s, i, j]:.6f}" for s in range(samples)]
                )


def plot_heatmap(path: Path, result: N2OMatrix, *, title: str | None = None) -> Path:
    """Annotated heatmap (values in cells), sized so that ~21 models stay readable."""
    path = figure_file(path, what="heatmap file")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = len(result.names)
    cell = 0.6 if m > 8 else 0.9
    longest = max(len(n) for n in result.names)
    side = max(4.0, m * cell + 0.09 * longest + 1.5)
    fig, ax = plt.subplots(figsize=(side + 1.0, side))
    data = result.mean.copy()
    off = data[~np.eye(m, dtype=bool)] if m > 1 else data.ravel()
    vmax = float(off.max()) if off.size else 1.0
    # diagonal (always 1) in grey, so that the colour scale spans the off-diagonal values
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="#d9d9d9")
    shown = np.ma.masked_where(np.eye(m, dtype=bool), data)
    im = ax.imshow(shown, cmap=cmap, vmin=0.0, vmax=max(vmax, 1e-6))
    fontsize = 10 if m <= 8 else (8 if m <= 16 else 7)
    for i in range(m):
        for j in range(m):
            v = data[i, j]
            color = "black" if i == j or v > 0.6 * vmax else "white"
            label = "1" if i == j else (f"{v:.2f}" if m <= 12 else f"{v:.2f}".lstrip("0"))
            ax.text(j, i, label, ha="center", va="center", fontsize=fontsize, color=color)
    ax.set_xticks(range(m), result.names, rotation=60, ha="right", fontsize=fontsize + 1)
    ax.set_yticks(range(m), result.names, fontsize=fontsize + 1)
    samples = result.per_sample.shape[0]
    ax.set_title(title or f"N2O, k = {result.k}, mean over {samples} sample(s) (diagonal = 1)", fontsize=fontsize + 3)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="N2O (off-diagonal scale)")
    fig.tight_layout()
    try:
        with atomic_target(path) as tmp:  # whole or not at all; a symlink at PATH is replaced, not written through
            fig.savefig(tmp, dpi=130, bbox_inches="tight", format=path.suffix[1:].lower())
    finally:
        plt.close(fig)
    return path


def format_robustness(rob: dict[str, Any]) -> str:
    """The robustness summary as text: Spearman rho between the rankings of model pairs across k and across samples."""

    def fmt(d: dict[str, Any]) -> str:
        if d["mean"] is None:
            return "n/a (needs >= 3 models and varying N2O)"
        return f"mean {d['mean']:.4f}  min {d['min']:.4f}  ({d['count']} comparisons)"

    std = rob["sample_std"]
    return "\n".join(
        [
            f"robustness (Spearman rho between rankings of the {rob['pairs']} model pairs):",
            f"  across k {rob['ks']}: {fmt(rob['across_k'])}",
            f"  across query samples (k = {rob['k']}): {fmt(rob['across_samples'])}",
            f"  std of N2O across samples: mean {std['mean']:.4f}  min {std['min']:.4f}  max {std['max']:.4f}",
        ]
    )


def check_report_outputs(out: Path | None, csv_path: Path | None) -> None:
    """Refuse unusable ``out`` / ``csv_path`` before any work (:class:`InputError` naming the path)."""
    if csv_path:
        output_file(Path(csv_path), what="CSV file")
    if out:
        figure = figure_file(Path(out), what="heatmap file")
        if csv_path and Path(csv_path).absolute() == figure.absolute():
            raise InputError(f"--csv and --out name the same file {figure}; give each its own file.")


def report(
    sets: Sequence[NeighborSet], *, k: int | None, out: Path | None, csv_path: Path | None, print_fn=print
) -> tuple[N2OMatrix, dict[str, Any]]:
    """Compute and print the matrix and robustness; write CSV / PNG when asked."""
    check_report_outputs(out, csv_path)
    result = n2o_matrix(sets, k)
    s0 = sets[0]
    print_fn(
        f"N2O at k = {result.k}: {len(sets)} models, corpus {s0.corpus_fingerprint} ({s0.corpus_size:,} sentences), "
        f"{s0.samples} sample(s) x {s0.query_ids.shape[1]} queries, seed {s0.seed}"
    )
    print_fn(format_matrix(result))
    rob = robustness(sets, k=result.k)
    print_fn(format_robustness(rob))
    if csv_path:
        write_csv(csv_path, result)
        print_fn(f"csv: {csv_path}")
    if out:
        print_fn(f"heatmap: {plot_heatmap(out, result)}")
    return result, rob


# --- direct comparison on a user's corpus ------------------------------------------------------
def neighbor_sets_for_models(
    models: Sequence[Any],
    corpus: Sequence[str],
    *,
    k: int,
    n_queries: int,
    samples: int,
    seed: int = 42,
    use_faiss: bool = False,
    use_cache: bool = True,
    cache_root: Path | None = None,
    batch_size: int | None = None,
    names: Sequence[str] | None = None,
    progress: bool = True,
    print_fn=print,
) -> list[NeighborSet]:
    """Encode ``corpus`` (deduplicated by the caller) with each model and return its neighbour lists."""
    from mteb_evalrank.data.embedding_cache import corpus_fingerprint, encode_corpus
    from mteb_evalrank.integration.encoding import model_label
    from mteb_evalrank.metrics.neighbors import (
        _check_k,
        check_corpus_directions,
        exact_knn,
        faiss_knn,
        recall_at_k,
        sample_query_sets,
    )
    from mteb_evalrank.tasks.n2o import N2O

    corpus = list(corpus)
    if not corpus:
        raise InputError("the corpus is empty: nothing to compare.")
    if len(set(corpus)) != len(corpus):
        raise InputError("the corpus must be deduplicated before comparison.")
    check_sizes(k=k, n_queries=n_queries, samples=samples, seed=seed, batch_size=batch_size)
    _check_k(k, len(corpus))
    query_sets = sample_query_sets(len(corpus), n_queries, samples, seed=seed)
    unique_q, inverse = np.unique(query_sets, return_inverse=True)
    fp = corpus_fingerprint(corpus)
    encode_kwargs = {"batch_size": batch_size} if batch_size is not None else {}
    out = []
    for i, model in enumerate(models):
        name = names[i] if names else model_label(model)
        emb = encode_corpus(
            model,
            corpus,
            task_metadata=N2O.metadata,
            fingerprint=fp,
            use_cache=use_cache,
            root=cache_root,
            encode_kwargs=encode_kwargs,
            progress=progress,
        )
        meta: dict[str, Any] = {"search": "exact"}
        try:
            check_corpus_directions(emb)
        except DirectionlessRowsError as exc:  # the metric's rows, told as this model's corpus sentences
            raise exc.about(
                f"{name} on the corpus",
                noun="sentence vectors",
                labels=corpus,
                advice="their neighbours would be the corpus order, not the model's; drop those sentences from the "
                "corpus or compare another model",
            ) from None
        if use_faiss:
            approx = faiss_knn(emb, unique_q, k)
            exact_ids, _ = exact_knn(emb, unique_q, k)
            approx.recall = recall_at_k(approx.ids, exact_ids)
            ids = approx.ids
            meta.update(search="faiss-hnsw", recall=approx.recall, build_seconds=approx.build_seconds)
            print_fn(
                f"{name}: FAISS HNSW recall@{k} vs exact = {approx.recall:.4f} (build {approx.build_seconds:.1f}s)"
            )
        else:
            ids, _ = exact_knn(emb, unique_q, k, progress=False)
        out.append(
            NeighborSet(name, ids[inverse.reshape(query_sets.shape)], query_sets, fp, len(corpus), seed=seed, meta=meta)
        )
    return out


def check_explain_query(sets: Sequence[NeighborSet], query: int | None) -> None:
    """``query`` (``--explain-query``) is a position in sample 0: ``0 ≤ query < queries per sample``; checked
    before the report writes anything."""
    if query is None:
        return
    n = sets[0].query_ids.shape[1]
    if not 0 <= query < n:
        raise InputError(f"--explain-query must be in [0, {n - 1}] (position of a query in sample 0), got {query}.")


def explain_query(
    sets: Sequence[NeighborSet],
    query: int,
    *,
    k: int | None = None,
    corpus: Sequence[str] | None = None,
    print_fn=print,
) -> dict[str, Any]:
    """Print §7's popular and outlier neighbours of query ``query`` (position in sample 0).

    Popular: in the top 5 of every model. Outlier: in one model's top ``k`` and in no other model's
    top 50 (or the stored maximum, if smaller). With ``corpus`` (the texts the models were run on),
    sentences are shown next to their ids.
    """
    from mteb_evalrank.metrics.neighbors import popular_and_outlier_neighbors

    check_explain_query(sets, query)
    k = k or min(s.k_max for s in sets)
    exclusive_k = min(50, min(s.k_max for s in sets))
    info = popular_and_outlier_neighbors(sets, sample=0, query=query, popular_k=min(5, k), k=k, exclusive_k=exclusive_k)

    def show(i: int) -> str:
        return f"[{i}] {corpus[i]}" if corpus is not None else f"[{i}]"

    print_fn(f"\nquery {show(info['query_id'])}")
    print_fn(f"popular (top {min(5, k)} of every model): " + (", ".join(map(str, info["popular"])) or "none"))
    for i in info["popular"]:
        print_fn(f"  {show(i)}")
    for name, items in info["outliers"].items():
        print_fn(f"outliers of {name} (its top {k}, no other model's top {exclusive_k}): {len(items)}")
        for item in items:
            print_fn(f"  rank {item['rank']:>2}  {show(item['id'])}")
    return info


def corpus_for_results(sets: Sequence[NeighborSet], source: Path | None) -> list[str] | None:
    """The texts behind ``sets`` from a corpus file/folder, checked against the stored fingerprint."""
    if source is None:
        return None
    from mteb_evalrank.data.embedding_cache import corpus_fingerprint
    from mteb_evalrank.metrics.neighbors import deduplicate
    from mteb_evalrank.tasks.n2o import load_corpus_source

    texts, _, _ = load_corpus_source(source)
    corpus = deduplicate(texts, what=str(source))
    if corpus_fingerprint(corpus) != sets[0].corpus_fingerprint:
        raise InputError(
            f"{source} is not the corpus these results were computed on "
            f"(fingerprint {corpus_fingerprint(corpus)} != {sets[0].corpus_fingerprint})."
        )
    return corpus


#: Upper bound on the neighbour ids one comparison keeps per model (samples x queries x k, int64).
MAX_NEIGHBOR_IDS = 100_000_000


def check_sizes(*, k: int, n_queries: int, samples: int, seed: int = 0, batch_size: int | None = None) -> None:
    """Refuse non-positive or absurd numbers before any model is loaded (:class:`InputError`)."""
    for name, value in (("k", k), ("the number of queries", n_queries), ("the number of samples", samples)):
        if int(value) < 1:
            raise InputError(f"{name} must be ≥ 1, got {value}.")
    if int(seed) < 0:
        raise InputError(f"the seed must be ≥ 0, got {seed}.")
    if batch_size is not None and int(batch_size) < 1:
        raise InputError(f"batch size must be ≥ 1, got {batch_size}.")
    ids = int(samples) * int(n_queries) * int(k)
    if ids > MAX_NEIGHBOR_IDS:
        raise InputError(
            f"{samples} samples x {n_queries} queries x k={k} = {ids:,} neighbour ids per model "
            f"({ids * 8 / 1e9:.1f} GB); the limit is {MAX_NEIGHBOR_IDS:,}. Lower --samples, --queries or --k."
        )


def _refuse_twin_names(model_specs: Sequence[str]) -> None:
    """Two models whose specs print alike (``naïve.txt`` as NFC and as NFD: two files on Linux) would be two rows of
    one name in the matrix: refused naming both (:func:`mteb_evalrank.names.name_key`, case kept: ``A.txt`` and
    ``a.txt`` print differently)."""
    from mteb_evalrank.names import first_twin, spelled, twin_note

    twins = first_twin(model_specs, casefold=False)
    if twins is not None:
        twin, spec = twins
        raise InputError(
            f"models {spelled(twin)} and {spelled(spec)} are two names that print alike ({twin_note(spec, twin)}): "
            "the matrix could not tell them apart; rename one of the files."
        )


def neighbor_sets_from_corpus_file(
    model_specs: Sequence[str],
    corpus_path: Path,
    *,
    k: int = 50,
    n_queries: int = 100,
    samples: int = 5,
    seed: int = 42,
    use_faiss: bool = False,
    use_cache: bool = True,
    batch_size: int | None = None,
    device: str | None = None,
) -> tuple[list[str], list[NeighborSet]]:
    """Load each model in turn and find the neighbours of the same sampled queries on a corpus file.

    Model specs are those of ``run`` (:mod:`mteb_evalrank.integration.model_specs`: MTEB names, local
    folders, word vectors, ``zoo:`` names, ``rankencoder:``); all of them are checked before the first
    model is loaded.  Returns the deduplicated corpus and one :class:`NeighborSet` per model (named by
    its spec).
    """
    from tqdm.auto import tqdm

    from mteb_evalrank.data.files import read_lines
    from mteb_evalrank.integration.model_specs import check_model_spec, load_any_model
    from mteb_evalrank.metrics.neighbors import deduplicate

    if len(model_specs) < 2:
        raise InputError("give at least two models to compare.")

    def same_key(spec: str) -> object:  # one file by two names (a hard link, a symlink, './x') is one model
        try:
            st = os.stat(spec)
        except (OSError, ValueError):
            return spec
        return (st.st_dev, st.st_ino)

    keys = [same_key(m) for m in model_specs]
    repeated = sorted({m for m, key in zip(model_specs, keys) if keys.count(key) > 1})
    if repeated:
        raise InputError(f"each model can be compared once; repeated: {', '.join(repeated)}.")
    _refuse_twin_names(model_specs)
    check_sizes(k=k, n_queries=n_queries, samples=samples, seed=seed, batch_size=batch_size)
    corpus = deduplicate(read_lines(Path(corpus_path), what="corpus file"), what=str(corpus_path))
    if not corpus:
        raise InputError(f"the corpus {corpus_path} is empty (no non-blank lines).")
    resolved: dict[tuple[str, str | None], str] = {}
    for spec in model_specs:  # every spec resolves before anything is encoded
        key = check_model_spec(spec)
        if key in resolved:
            raise InputError(
                f"each model can be compared once; {resolved[key]} and {spec} are the same model ({key[0]})."
            )
        resolved[key] = spec
    sets: list[NeighborSet] = []
    for spec in tqdm(model_specs, desc="models", unit="model"):
        model = load_any_model(spec, device=device)
        sets.extend(
            neighbor_sets_for_models(
                [model],
                corpus,
                k=k,
                n_queries=n_queries,
                samples=samples,
                seed=seed,
                use_faiss=use_faiss,
                use_cache=use_cache,
                batch_size=batch_size,
                names=[spec],
            )
        )
        del model
    return corpus, sets
