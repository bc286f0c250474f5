"""``mteb-evalrank study --models FILE``: the study on any list of models.

A model list is a CSV file, one row per model:

- ``model`` (required): anything ``-m`` accepts (:mod:`mteb_evalrank.integration.model_specs`) — an MTEB
  model name, a Hub id, a local SentenceTransformer or transformers folder, a word-vector file, a zoo
  variant ``zoo:<base>/<variant>``, a RankEncoder spec;
- ``lineage`` (required, non-empty): the independent unit the study's statistics resample (models sharing
  trained weights, a distillation teacher, or one method family on one corpus share a lineage; see
  ``docs/statistics.md``);
- ``lineage_reason`` (required, non-empty): why the model is in that lineage;
- ``floor`` (optional, ``true``/``false``, empty = false): a random floor, left out of the confirmatory tests;
- ``family`` (optional): the checkpoint family (variants of one checkpoint); empty → the zoo's family of a zoo
  variant, else the model itself.

Other columns (the shipped populations carry ``n_parameters`` and ``gpu_hours_est``) are kept for the reader
and ignored.  :func:`read_model_list` checks all of it before any model is loaded and names the file and line
of the first problem.

The run (:func:`run_model_list`) is the zoo study's (:mod:`mteb_evalrank.integration.study`) for arbitrary
specs: every (model, task) pair, grouped by forward pass (a zoo base's variants share one; any other model is
its own group) and sharded with :func:`~mteb_evalrank.integration.study.shard_items`; a pair whose result file
exists is skipped before the model is loaded, so a stopped run resumes; models are visited lineage by
lineage (:func:`~mteb_evalrank.integration.study.family_round_robin`), so a run stopped part-way has covered as
many independent lineages as it could.

:func:`registry_lineage` derives a lineage from MTEB's model registry: ``ModelMeta.adapted_from`` is followed
from model to model until an entry that records none (or one outside the registry); that root names the
lineage.  :func:`gpu_hours` is the cost estimate of one model from its parameter count.
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteb_evalrank.data.files import atomic_write_text
from mteb_evalrank.errors import InputError

REQUIRED_COLUMNS = ("model", "lineage", "lineage_reason")
OPTIONAL_COLUMNS = ("floor", "family")
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no", "")


@dataclass(frozen=True)
class ModelRow:
    """One row of a model list (see the module docstring)."""

    model: str
    lineage: str
    lineage_reason: str
    floor: bool = False
    family: str | None = None
    line: int = 0  # line of the file (1 = header), for messages


#: the model lists shipped with the package (``mteb_evalrank/data/study_populations/<name>_population.csv``):
#: ``--models hub`` (MTEB registry models a user with GPUs and the Hub can run) and ``--models table9``
#: (the EvalRank paper's Table 9 transformers, Hub ids outside MTEB's registry)
SHIPPED = ("hub", "table9")


def shipped_population(name: str) -> Path:
    """The path of a shipped model list (:data:`SHIPPED`)."""
    if name not in SHIPPED:
        raise InputError(f"no shipped model list {name!r}; shipped: {', '.join(SHIPPED)}.")
    return Path(__file__).resolve().parents[1] / "data" / "study_populations" / f"{name}_population.csv"


def model_list_path(text: str | os.PathLike) -> Path:
    """``text`` as a path, or a shipped list's path when ``text`` is one of :data:`SHIPPED` and no such file exists."""
    path = Path(text)
    if not path.exists() and str(text) in SHIPPED:
        return shipped_population(str(text))
    return path


def read_model_list(path: str | os.PathLike) -> list[ModelRow]:
    """The rows of a model-list CSV, checked strictly: a header with ``model``, ``lineage`` and
    ``lineage_reason`` (optional ``floor``, ``family``; other columns ignored), no empty model, lineage or
    reason, no model twice, ``floor`` one of true/false/1/0/yes/no/empty.  Every problem is an
    :class:`InputError` of one line naming the file and the line."""
    from mteb_evalrank.data.files import read_text

    path = model_list_path(path)
    if not path.is_file():
        raise InputError(
            f"--models {path}: no such file (expected a CSV with the header model,lineage,lineage_reason)."
        )
    rows = list(csv.reader(io.StringIO(read_text(path, what="--models file"), newline="")))
    while rows and not any(c.strip() for c in rows[0]):
        rows.pop(0)
    if not rows:
        raise InputError(f"--models {path}: empty file (expected a header model,lineage,lineage_reason).")
    header = [c.strip().lower() for c in rows[0]]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise InputError(
            f"--models {path}, line 1: missing column(s) {', '.join(missing)} "
            f"(the header needs {','.join(REQUIRED_COLUMNS)}; optional {','.join(OPTIONAL_COLUMNS)})."
        )
    dup_cols = sorted({c for c in header if c and header.count(c) > 1})
    if dup_cols:
        raise InputError(f"--models {path}, line 1: column {dup_cols[0]!r} appears twice.")
    col = {c: header.index(c) for c in (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS) if c in header}
    out: list[ModelRow] = []
    seen: dict[str, int] = {}
    for k, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header):
            raise InputError(
                f"--models {path}, line {k}: {len(row)} fields, the header has {len(header)} "
                "(quote a field that contains a comma)."
            )
        cell = {c: (row[i].strip() if i < len(row) else "") for c, i in col.items()}
        for c in REQUIRED_COLUMNS:
            if not cell[c]:
                raise InputError(
                    f"--models {path}, line {k}: empty {c}" + (f" for {cell['model']!r}" if c != "model" else "") + "."
                )
        if cell["model"] in seen:
            raise InputError(
                f"--models {path}, line {k}: model {cell['model']!r} already on line {seen[cell['model']]}."
            )
        seen[cell["model"]] = k
        floor = cell.get("floor", "").lower()
        if floor not in _TRUE + _FALSE:
            raise InputError(f"--models {path}, line {k}: floor must be true or false, got {cell['floor']!r}.")
        out.append(
            ModelRow(
                cell["model"], cell["lineage"], cell["lineage_reason"], floor in _TRUE, cell.get("family") or None, k
            )
        )
    if not out:
        raise InputError(f"--models {path}: no model rows after the header.")
    return out


# --- lineage from MTEB's registry ------------------------------------------------------------------------
def registry_lineage(name: str, metas: Mapping[str, Any] | None = None) -> tuple[str, str]:
    """``(lineage, reason)`` of an MTEB registry model from ``ModelMeta.adapted_from``.

    Rule: follow ``adapted_from`` from ``name`` while it names another registry entry; the last model of the
    chain (the *root*) is the lineage.  When the chain leaves the registry, the named checkpoint outside it
    is the root.  A model that records no ``adapted_from`` is its own root — the registry does not say it
    shares weights with another entry, which is not proof that it does not (check its model card).  A cycle
    is an :class:`InputError`.  ``metas``: {name: ModelMeta}, default ``mteb.get_model_metas()``."""
    metas = _registry_metas() if metas is None else metas
    if name not in metas:
        raise InputError(f"{name!r} is not in MTEB's model registry; give its lineage by hand.")
    chain = [name]
    while True:
        parent = getattr(metas[chain[-1]], "adapted_from", None)
        if not parent:
            break
        if parent in chain:
            raise InputError(f"{name!r}: MTEB's registry has a cycle in adapted_from ({' → '.join([*chain, parent])}).")
        chain.append(parent)
        if parent not in metas:
            break
    root = chain[-1]
    if len(chain) == 1:
        return root, (
            "MTEB registry: records no adapted_from, so its own lineage (the registry names no shared "
            "weights; not verified against the model card)"
        )
    where = "a checkpoint outside the registry" if root not in metas else "records no adapted_from"
    return root, f"MTEB registry adapted_from chain: {' → '.join(chain)} (root {root}: {where})"


def _registry_metas() -> dict[str, Any]:
    import mteb

    return {m.name: m for m in mteb.get_model_metas() if m.name is not None}


def fill_lineages_from_registry(
    rows: Iterable[Mapping[str, str]], metas: Mapping[str, Any] | None = None
) -> list[dict[str, str]]:
    """The rows with every empty ``lineage`` filled by :func:`registry_lineage` (its reason in
    ``lineage_reason``); rows that already have a lineage are kept as they are."""
    metas = _registry_metas() if metas is None else metas
    out = []
    for row in rows:
        row = dict(row)
        if not str(row.get("lineage") or "").strip():
            row["lineage"], row["lineage_reason"] = registry_lineage(str(row["model"]).strip(), metas)
        out.append(row)
    return out


# --- cost -----------------------------------------------------------------------------------------------
#: distinct texts the sentence study encodes per model (measured: every base of ``docs/study/timing.json``
#: encoded 178,362 texts on the sentence study's tasks)
STUDY_TEXTS = 178_362
#: assumed mean tokens per text (short sentences; the study's tasks are SentEval/STS sentences and words)
TOKENS_PER_TEXT = 30
#: assumed effective throughput of one data-centre GPU on encoder inference (FLOP/s; an A100 at ~6% of its
#: bf16 peak, what small-batch, padded sentence encoding reaches) — an assumption, not measured here
GPU_FLOPS = 20e12
#: assumed fixed hours per model: loading, the downstream classifiers and the rank evaluations (CPU-side)
OVERHEAD_HOURS = 0.1
GPU_HOURS_FORMULA = (
    f"gpu_hours_est = {OVERHEAD_HOURS} + 2 × n_parameters × {STUDY_TEXTS:,} texts × "
    f"{TOKENS_PER_TEXT} tokens / ({GPU_FLOPS:.0e} FLOP/s × 3600)"
)


def gpu_hours(n_parameters: int | float | None) -> float | None:
    """Estimated GPU-hours of the sentence study for one model: a forward pass costs 2 FLOP per parameter
    per token, so ``OVERHEAD_HOURS + 2·N·STUDY_TEXTS·TOKENS_PER_TEXT / (GPU_FLOPS·3600)``
    (:data:`GPU_HOURS_FORMULA`).  ``None`` when the parameter count is unknown."""
    if n_parameters is None or not n_parameters > 0:
        return None
    return OVERHEAD_HOURS + 2.0 * float(n_parameters) * STUDY_TEXTS * TOKENS_PER_TEXT / (GPU_FLOPS * 3600.0)


# --- the run ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ResolvedModel:
    """A model-list row with where its results are filed (no weights loaded)."""

    row: ModelRow
    name: str  # the MTEB model name results are filed under
    revision: str | None  # None: a Hub model outside the registry (resolved when loaded)
    group: str  # models that share one forward pass (a zoo base), else the spec itself


def resolve_rows(rows: Sequence[ModelRow], *, source: str | os.PathLike = "FILE") -> list[ResolvedModel]:
    """Each row's MTEB name and revision (:func:`~mteb_evalrank.integration.model_specs.check_model_spec`), all
    checked before anything is loaded; two rows that file results under the same name are an error."""
    from mteb_evalrank.integration.model_specs import check_model_spec
    from mteb_evalrank.zoo.adapter import is_zoo_spec, resolve_zoo_spec, user_name

    out: list[ResolvedModel] = []
    by_name: dict[str, ModelRow] = {}
    for row in rows:
        try:
            name, revision = check_model_spec(row.model)
        except InputError as exc:
            raise InputError(f"--models {source}, line {row.line}: {str(exc).splitlines()[0]}") from None
        if name in by_name:
            raise InputError(
                f"--models {source}, line {row.line}: {row.model!r} is the same model as "
                f"{by_name[name].model!r} on line {by_name[name].line} ({name})."
            )
        by_name[name] = row
        group = user_name(resolve_zoo_spec(row.model).base) if is_zoo_spec(row.model) else row.model
        out.append(ResolvedModel(row, name, revision, group))
    return out


def has_result(out: Path, model: ResolvedModel, task: str) -> bool:
    """Whether ``out/results`` holds ``task`` for the model: at its revision, or any revision when the
    revision is only known once loaded (a Hub model outside the registry)."""
    from mteb_evalrank.data.result_files import has_result
    from mteb_evalrank.results.folders import model_folder

    folder = model_folder(out, model.name)
    if model.revision:
        return has_result(folder, task, revision=model.revision)
    return has_result(folder, task)


def run_model_list(
    out: str | Path,
    models: Sequence[ResolvedModel],
    tasks: Sequence[str],
    *,
    shard: str | None = None,
    device: str | None = None,
    batch_size: int = 64,
    progress: bool = True,
    log: Callable[[str], None] = print,
):
    """Evaluate every (model, task) of this shard that has no result yet; never stops on one failure.
    Returns the :class:`~mteb_evalrank.integration.study.StudyRun` (also written to ``<out>/timing.json``)."""

    from mteb_evalrank.integration.model_specs import load_any_model
    from mteb_evalrank.integration.result_cache import open_result_cache
    from mteb_evalrank.integration.study import (
        StudyRun,
        WorkItem,
        _record,
        evaluate_tasks,
        family_round_robin,
        parse_shard,
        run_environment,
        runnable_tasks,
        shard_items,
    )
    from mteb_evalrank.zoo.variants import FORWARD_COUNTER

    out = Path(out)
    cache = open_result_cache(out)
    index, count = parse_shard(shard)
    run = StudyRun(
        started=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        shard=f"{index + 1}/{count}",
        environment=run_environment(),
        run_id=f"{time.time():.6f}-{os.getpid()}",
    )
    tasks = list(dict.fromkeys(tasks))
    task_objects = runnable_tasks(run, tasks, log)
    by_spec = {m.row.model: m for m in models}
    items = shard_items([WorkItem(m.group, t, m.row.model) for m in models for t in tasks], index, count)
    run.items_planned, run.variants, run.tasks = len(items), [m.row.model for m in models], tasks
    start = time.perf_counter()
    before = dict(FORWARD_COUNTER.by_base)
    todo_of: dict[str, list[str]] = {}
    for item in items:
        todo_of.setdefault(item.variant, []).append(item.task)
    order = family_round_robin(todo_of, lambda spec: by_spec[spec].row.lineage)
    for n, spec in enumerate(order, 1):
        model = by_spec[spec]
        todo = [t for t in todo_of[spec] if not has_result(out, model, t)]
        run.items_skipped_done += len(todo_of[spec]) - len(todo)
        if not todo:
            continue
        log(f"[{n}/{len(order)}] {spec}: {len(todo)} task(s)")
        model_start = time.perf_counter()
        try:
            encoder = load_any_model(spec, device=device)
        except Exception as exc:
            run.failures += [{"variant": spec, "task": t, "error": f"{type(exc).__name__}: {exc}"} for t in todo]
            log(f"  failed to load: {exc}")
            continue
        evaluate_tasks(
            run,
            spec,
            encoder,
            [task_objects[t] for t in todo],
            cache,
            batch_size=batch_size,
            progress=progress,
            log=log,
        )
        run.seconds_by_variant[spec] = round(time.perf_counter() - model_start, 1)
        del encoder
        _record(out, run, start, before, finished=False)
    _record(out, run, start, before, finished=True)
    return run


# --- study-population ---------------------------------------------------------------------------------------
POPULATION_FILE_COLUMNS = (
    "model",
    "lineage",
    "lineage_reason",
    "floor",
    "family",
    "tier",
    "n_parameters",
    "gpu_hours_est",
)


def registry_population(
    rows: Iterable[Mapping[str, str]] | Iterable[str], metas: Mapping[str, Any] | None = None
) -> list[dict[str, str]]:
    """A model list of MTEB registry models: each row (a name, or a mapping with at least ``model``) gets its
    lineage from :func:`registry_lineage` when it has none, and ``n_parameters`` and ``gpu_hours_est``
    (:func:`gpu_hours`) from ``ModelMeta.n_parameters``; other columns are kept.  A name outside the registry
    is an :class:`InputError`."""
    metas = _registry_metas() if metas is None else metas
    rows = [{"model": r} if isinstance(r, str) else dict(r) for r in rows]
    for row in rows:
        name = str(row.get("model", "")).strip()
        if name not in metas:
            raise InputError(
                f"{name!r} is not in MTEB's model registry (mteb.get_model_meta); a model list for "
                "study-population --from-registry takes registry names only."
            )
    out = []
    for row in fill_lineages_from_registry(rows, metas):
        n = getattr(metas[row["model"]], "n_parameters", None)
        hours = gpu_hours(n)
        row["n_parameters"] = "" if n is None else str(int(n))
        row["gpu_hours_est"] = "" if hours is None else f"{hours:.2f}"
        out.append(row)
    return out


def write_population_csv(rows: Sequence[Mapping[str, str]], path: str | os.PathLike) -> Path:
    """Write a model list: :data:`POPULATION_FILE_COLUMNS` first (those present), then any other columns."""
    cols = [c for c in POPULATION_FILE_COLUMNS if any(c in r for r in rows)]
    cols += [c for r in rows for c in r if c not in cols]
    cols = list(dict.fromkeys(cols))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({c: r.get(c, "") for c in cols})
    path = Path(path)
    return atomic_write_text(path, buf.getvalue())  # a temporary file renamed over PATH: never half a file


def read_rows(path: str | os.PathLike) -> list[dict[str, str]]:
    """A CSV with a ``model`` column as dicts (blank lines skipped; lineage columns may be empty), read
    strictly (:func:`mteb_evalrank.data.tables.read_strict_table`): a repeated model or column, a row with
    too few or too many cells, no rows, or a ``floor`` that is not true/false is an error naming the line."""
    from mteb_evalrank.data.files import special_file_kind
    from mteb_evalrank.data.tables import parse_bool_cell, read_strict_table

    path = Path(path)
    if special_file_kind(path) == "does not exist":
        raise InputError(f"{path}: no such file (expected a CSV with a 'model' column).")
    table = read_strict_table(path, what="model list", key="model")
    header = [h.lower() for h in table.header]
    rows = []
    for line, cells in table.rows:
        row = dict(zip(header, cells))
        if row.get("floor"):
            parse_bool_cell(row["floor"], path=path, what="model list", line=line, column="floor")
        rows.append(row)
    return rows
