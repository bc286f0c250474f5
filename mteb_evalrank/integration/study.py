"""Run the zoo on the study's tasks: the work plan, shards, resume and timing of ``mteb-evalrank study``.

The work is every (zoo variant, task) pair.  It is grouped by (base model, task) — the variants of
one base share one forward pass per text through the embedding store — and group ``j`` of the
sorted plan goes to shard ``j mod n``, so ``--shard i/n`` on ``n`` machines (or SLURM array jobs)
covers every pair exactly once and each machine encodes a text of a task once for all variants of
a base.  Results go to one MTEB results folder (``<out>``, files under ``<out>/results/``); a pair whose result file exists
is skipped before its model is even loaded, so an interrupted study resumes where it stopped and a
finished one re-runs in seconds.
"""

from __future__ import annotations

import json
import os
import re
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mteb_evalrank.atomic_files import replace_file
from mteb_evalrank.errors import EvalRankError, InputError

LEVELS = ("sentence", "word")

#: Task lists derived from what each task declares (its ``role`` and ``input_level``, class attributes of the
#: task classes; see :func:`mteb_evalrank.integration.task_lookup.plugin_task_names`), computed on first use —
#: no list of task names is kept by hand, so a new task joins the study by declaring its role:
#:
#: - ``INTRINSIC_TASKS`` — the sentence study's intrinsic rows (EvalRank Table 6): the ``intrinsic`` and
#:   ``diagnostic`` tasks and the sentence-level ``baseline`` tasks;
#: - ``SIMILARITY_BASELINES`` — the sentence-level baselines named in advance (STS12-16, STS-B, SICK-R, STR);
#: - ``WORD_SIMILARITY_TASKS`` — the word-level baselines named in advance (the 9 sets of EvalRank Table 3);
#: - ``OTHER_WORD_SIMILARITY_TASKS`` — word-level ``similarity`` tasks: run and shown, never compared;
#: - ``DOWNSTREAM_TASKS`` — the downstream tasks (EvalRank Table 6 columns, plus MRPC and SICK-E of
#:   Table 3, and SciCite), in the task package's order;
#: - ``STUDY_TASKS`` — the sentence-level study: ``INTRINSIC_TASKS + DOWNSTREAM_TASKS``;
#: - ``WORD_STUDY_TASKS`` — the word-level study (EvalRank Table 3): word models on the word-level
#:   ``intrinsic``, ``baseline`` and ``similarity`` tasks and the downstream tasks (word models enter those as
#:   bag-of-words encoders, as in the paper).  Not to be confused with the tasks whose *inputs* are single
#:   words (``plugin_task_names(input_level="word")``).
_DERIVED = (
    "INTRINSIC_TASKS",
    "SIMILARITY_BASELINES",
    "WORD_SIMILARITY_TASKS",
    "OTHER_WORD_SIMILARITY_TASKS",
    "DOWNSTREAM_TASKS",
    "STUDY_TASKS",
    "WORD_STUDY_TASKS",
)


def __getattr__(name: str) -> Any:
    if name == "SLOW_BASES":
        return _slow_bases()
    if name not in _DERIVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _task_list(name)


def _task_list(name: str) -> tuple[str, ...]:
    from mteb_evalrank.integration.task_lookup import plugin_task_names

    downstream = plugin_task_names(role="downstream")
    intrinsic = tuple(
        t
        for t in plugin_task_names(role=("intrinsic", "diagnostic", "baseline"))
        if t in plugin_task_names(role=("intrinsic", "diagnostic"))
        or t in plugin_task_names(role="baseline", input_level="sentence")
    )
    word_baselines = plugin_task_names(role="baseline", input_level="word")
    word_other = plugin_task_names(role="similarity", input_level="word")
    values = {
        "INTRINSIC_TASKS": intrinsic,
        "SIMILARITY_BASELINES": plugin_task_names(role="baseline", input_level="sentence"),
        "WORD_SIMILARITY_TASKS": word_baselines,
        "OTHER_WORD_SIMILARITY_TASKS": word_other,
        "DOWNSTREAM_TASKS": downstream,
        "STUDY_TASKS": intrinsic + downstream,
        "WORD_STUDY_TASKS": (
            *plugin_task_names(role="intrinsic", input_level="word"),
            *word_baselines,
            *word_other,
            *downstream,
        ),
    }
    globals().update(values)
    return values[name]


@dataclass(frozen=True, order=True)
class WorkItem:
    """One (variant, task) evaluation; ``base`` groups the variants that share a forward pass."""

    base: str
    task: str
    variant: str  # zoo name "<base>/<variant>"


def parse_shard(text: str | None) -> tuple[int, int]:
    """``"i/n"`` (1-based, as SLURM's ``$SLURM_ARRAY_TASK_ID`` + 1 … or 0-based ``i`` < ``n``)."""
    if text is None:
        return 0, 1
    # ASCII digits only: int() would also take ' 1', '1_0' or other scripts' digits, which no job script writes
    if not re.fullmatch(r"[0-9]+/[0-9]+", str(text)):
        raise InputError(f"--shard must look like i/n in digits, without spaces (e.g. 1/4), got {text!r}.")
    i_text, n_text = str(text).split("/")
    i, n = int(i_text), int(n_text)
    if n < 1 or not 1 <= i <= n:
        raise InputError(f"--shard {text}: need 1 ≤ i ≤ n, got i={i}, n={n}.")
    return i - 1, n


def plan(variants: Sequence[str], tasks: Sequence[str]) -> list[WorkItem]:
    """Every (variant, task) pair, sorted by (base, task, variant)."""
    return sorted(WorkItem(v.split("/")[0], t, v) for v in variants for t in tasks)


def shard_items(items: Sequence[WorkItem], index: int, count: int) -> list[WorkItem]:
    """The items of shard ``index`` (0-based) of ``count``: whole (base, task) groups, round robin."""
    groups: dict[tuple[str, str], list[WorkItem]] = {}
    for item in sorted(items):
        groups.setdefault((item.base, item.task), []).append(item)
    return [it for j, key in enumerate(sorted(groups)) if j % count == index for it in groups[key]]


def family_round_robin(variants: Iterable[str], family_of: Callable[[str], str]) -> list[str]:
    """The variants in breadth-first family order: the first variant of every family, then the second of every
    family, and so on (families and variants sorted by name).  A study that is stopped part-way therefore
    leaves results for as many independent families as possible, which is what the family-aware statistics
    count (a run of 20 variants of one checkpoint adds one family, not 20 models)."""
    by_family: dict[str, list[str]] = {}
    for v in sorted(variants):
        by_family.setdefault(family_of(v), []).append(v)
    depth = max((len(vs) for vs in by_family.values()), default=0)
    return [vs[i] for i in range(depth) for _, vs in sorted(by_family.items()) if i < len(vs)]


def heros_available() -> str | None:
    """``None`` when HEROS data can be loaded, else the reason it cannot."""
    try:
        from mteb_evalrank.hub_datasets.heros.load import load_heros

        load_heros()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:600]}"  # whole first line: it says what to set
    return None


@dataclass
class StudyRun:
    """What one ``study`` invocation did (written to ``<out>/timing.json`` and printed)."""

    started: str
    seconds: float = 0.0
    shard: str = "1/1"
    items_planned: int = 0
    items_run: int = 0
    items_skipped_done: int = 0
    failures: list[dict[str, str]] = field(default_factory=list)
    skipped_tasks: dict[str, str] = field(default_factory=dict)
    forward_texts_by_base: dict[str, int] = field(default_factory=dict)
    cached_texts_by_base: dict[str, int] = field(default_factory=dict)  # distinct texts in each base's store
    #: wall seconds per variant (loading + its tasks), and whether its base's embedding store was empty when
    #: the variant started ("cold": the time includes encoding every text)
    seconds_by_variant: dict[str, float] = field(default_factory=dict)
    cold_variants: list[str] = field(default_factory=list)
    cache_bytes: int = 0
    variants: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)  # see :func:`run_environment`
    run_id: str = ""  # identifies this run's entry while it is updated after every variant
    finished: bool = False  # false: the run was stopped (or is still running); its figures are what it had done


def run_environment() -> dict[str, str]:
    """What a reader needs to reproduce a run: the command, the plugin's git commit, Python and the versions
    of mteb, torch, sentence-transformers and numpy, the CPU (with its widest vector unit) and the date."""
    import platform
    import subprocess
    import sys
    from importlib import metadata

    env = {
        "command": " ".join(["mteb-evalrank", *sys.argv[1:]])
        if sys.argv and sys.argv[0].endswith("mteb-evalrank")
        else " ".join(sys.argv),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
    }
    for dist in ("mteb", "torch", "sentence-transformers", "numpy", "mteb-evalrank"):
        try:
            env[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            env[dist] = "not installed"
    if env["mteb"] == "not installed":  # MTEB's minimal distribution of the same code (docs/leaderboards.md)
        try:
            env["mteb"] = f"{metadata.version('mteb-core')} (mteb-core)"
        except metadata.PackageNotFoundError:
            pass
    try:
        env["commit"] = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        env["commit"] = "unknown (not a git checkout)"
    cpu, flags = platform.processor() or platform.machine(), ""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name") and cpu in ("", platform.machine(), platform.processor()):
                cpu = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = line
    except OSError:
        pass
    unit = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else ""
    import os

    env["cpu"] = f"{cpu}{', ' + unit if unit else ''}, {os.cpu_count()} logical cores"
    return env


def _slow_bases() -> frozenset[str]:
    """``SLOW_BASES`` (a module attribute, read when asked): the bases that the default run leaves out as too slow
    on a small CPU (the catalogue's ``slow``, which says why; a report takes their committed results like any
    other's), with the user catalogues then in force.  Importing this module (the benchmarks do, when ``mteb`` is
    imported) never reads the catalogue: a bad user catalogue cannot stop the plugin's tasks from registering."""
    from mteb_evalrank.zoo.catalogue import slow_bases

    return frozenset(slow_bases())


def select_variants(spec: str | Sequence[str], *, installed_only: bool = True, with_slow: bool = False) -> list[str]:
    """``"study"`` (the sentence study's variants: every installed variant except :data:`SLOW_BASES` and the
    population's and word level's additions), ``"population"`` (every installed sentence-level variant of all
    families but :data:`SLOW_BASES`), ``"word"`` (every installed word model), ``"all"`` (every installed
    variant), or names/prefixes (``minilm-l6``, ``zoo:glove-50d/sif``).  ``installed_only=False`` keeps the
    variants whose base is not installed here (a report from committed results); ``with_slow=True`` keeps the
    :data:`SLOW_BASES` in ``population`` (a report takes their committed results: slow is about running)."""
    from mteb_evalrank.zoo.adapter import resolve_zoo_spec, variant_status, with_user_prefix, without_user_prefix
    from mteb_evalrank.zoo.variants import BASES, VARIANTS

    names = [spec] if isinstance(spec, str) else list(spec)
    slow = _slow_bases()
    chosen: list[str] = []
    for name in names:
        for part in str(name).split(","):
            part = part.strip()
            if not part:
                continue
            if part in ("all", "study"):
                from mteb_evalrank.zoo.study_selection import population_only
                from mteb_evalrank.zoo.word_zoo import is_new_word_variant

                chosen += [
                    v
                    for v in sorted(VARIANTS)
                    if (not installed_only or variant_status(VARIANTS[v]) == "installed")
                    and (
                        part == "all"
                        or (
                            VARIANTS[v].base not in slow
                            and not population_only(VARIANTS[v].base)
                            and not is_new_word_variant(v)
                        )
                    )
                ]
            elif part == "word":  # the word-level study's population (EvalRank Table 3): every installed word model
                from mteb_evalrank.zoo.word_zoo import word_level_names

                chosen += [
                    v for v in word_level_names() if not installed_only or variant_status(VARIANTS[v]) == "installed"
                ]
            elif part == "population":  # every installed sentence-level variant of all families but SLOW_BASES
                from mteb_evalrank.zoo.study_selection import population_variants

                chosen += population_variants(exclude_bases=() if with_slow else slow, installed_only=installed_only)
            elif without_user_prefix(part) in BASES:
                chosen += [v for v in sorted(VARIANTS) if VARIANTS[v].base == without_user_prefix(part)]
            else:
                chosen.append(resolve_zoo_spec(with_user_prefix(part)).name)
    return list(dict.fromkeys(chosen))


def _record(
    out: Path, run: StudyRun, start: float, before: dict[str, int], *, finished: bool, forget: bool = False
) -> None:
    """Write (or update) this run's entry of ``<out>/timing.json`` atomically.  Called after every variant, so
    a run that is stopped keeps its wall time and counts (``finished`` false until it ends).  ``forget``: take
    this run's entry out again (the file too when no other entry is left)."""
    from mteb_evalrank.zoo.adapter import cache_size_bytes, loaded_store_sizes
    from mteb_evalrank.zoo.variants import FORWARD_COUNTER

    run.seconds = round(time.perf_counter() - start, 1)
    run.finished = finished
    run.forward_texts_by_base = {
        b: FORWARD_COUNTER.by_base.get(b, 0) - before.get(b, 0) for b in FORWARD_COUNTER.by_base
    }
    if finished:
        run.cache_bytes = cache_size_bytes()
        run.cached_texts_by_base = loaded_store_sizes()
    history = out / "timing.json"
    if forget and not history.exists():
        return
    out.mkdir(parents=True, exist_ok=True)
    runs = json.loads(history.read_text(encoding="utf-8")) if history.exists() else []
    runs = [r for r in runs if r.get("run_id") != run.run_id] + ([] if forget else [asdict(run)])
    if runs:
        replace_file(history, json.dumps(runs, indent=1))
    else:
        history.unlink()


def runnable_tasks(run: Any, tasks: list[str], log: Callable[[str], None]) -> dict[str, Any]:
    """The task objects of ``tasks`` (unknown names: :class:`InputError` with close matches), HEROS taken out of
    ``tasks`` and recorded in ``run.skipped_tasks`` when its data cannot be loaded.  Shared by the zoo study and
    ``study --models``."""
    from mteb_evalrank.integration.task_lookup import get_tasks_or_explain

    if "HEROS" in tasks:
        reason = heros_available()
        if reason is not None:
            tasks.remove("HEROS")
            run.skipped_tasks["HEROS"] = f"data not available: {reason}"
            log(f"HEROS skipped: data not available ({reason})")
    return {t.metadata.name: t for t in get_tasks_or_explain(tasks)}


def evaluate_tasks(
    run: Any,
    label: str,
    model: Any,
    tasks: Sequence[Any],
    cache: Any,
    *,
    batch_size: int,
    progress: bool,
    log: Callable[[str], None],
) -> None:
    """Evaluate ``model`` on each of ``tasks`` in turn with :func:`mteb.evaluate` into ``cache`` (finished subsets
    kept): a task that fails is recorded in ``run.failures`` under ``label`` and logged, and the others go on;
    each success counts in ``run.items_run``.  Shared by the zoo study and ``study --models``."""
    import mteb

    for task in tasks:
        task_name = task.metadata.name
        t0 = time.perf_counter()
        if callable(getattr(task, "score_options", None)) and hasattr(cache, "score_options"):
            cache.score_options[task_name] = task.score_options()  # a result of other options is computed again
        try:
            result = mteb.evaluate(
                model,
                [task],
                cache=cache,
                overwrite_strategy="only-missing",
                encode_kwargs={"batch_size": batch_size, "show_progress_bar": progress},
                show_progress_bar=False,
            )
            errors: list[Any] = list(result.exceptions or [])
        except Exception as exc:
            errors = [exc]
            if not isinstance(exc, EvalRankError):  # the plugin's own errors say what is wrong in the line below
                traceback.print_exc()
        if errors:
            text = str(getattr(errors[0], "exception", errors[0]))
            run.failures.append({"variant": label, "task": task_name, "error": text[:500]})
            log(f"  {task_name}: FAILED {text[:200]}")
        else:
            run.items_run += 1
            log(f"  {task_name}: {time.perf_counter() - t0:.1f} s")


def run_study(
    out: str | Path,
    *,
    variants: Sequence[str],
    tasks: Sequence[str] | None = None,
    shard: str | None = None,
    batch_size: int = 64,
    progress: bool = True,
    log: Callable[[str], None] = print,
) -> StudyRun:
    """Evaluate every (variant, task) of this shard that has no result yet; never stops on one failure.

    ``tasks``: default :data:`STUDY_TASKS`."""

    from mteb_evalrank.integration.result_cache import open_result_cache
    from mteb_evalrank.zoo.adapter import base_store_folder, cache_size_bytes, load_zoo_variant, user_name, variant_meta
    from mteb_evalrank.zoo.variants import BASES, FORWARD_COUNTER, VARIANTS

    out = Path(out)
    made = [f for f in (out, out / "results") if not f.exists()]  # what a run that does nothing takes away again
    cache = open_result_cache(out)  # MTEB files results under <out>/results/<model>/<revision>/
    index, count = parse_shard(shard)
    run = StudyRun(
        started=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        shard=f"{index + 1}/{count}",
        environment=run_environment(),
        run_id=f"{time.time():.6f}-{os.getpid()}",
    )
    tasks = list(dict.fromkeys(tasks if tasks is not None else _task_list("STUDY_TASKS")))
    task_objects = runnable_tasks(run, tasks, log)
    items = shard_items(plan(variants, tasks), index, count)
    run.items_planned, run.variants, run.tasks = len(items), list(variants), tasks
    start = time.perf_counter()
    before = dict(FORWARD_COUNTER.by_base)
    by_variant: dict[str, list[str]] = {}
    for item in items:
        by_variant.setdefault(item.variant, []).append(item.task)
    order = family_round_robin(by_variant, lambda v: BASES[VARIANTS[v].base].family_name)
    for n, name in enumerate(order, 1):
        meta = variant_meta(VARIANTS[name])
        todo = [t for t in by_variant[name] if not cache.get_task_result_path(t, meta).exists()]
        run.items_skipped_done += len(by_variant[name]) - len(todo)
        if not todo:
            continue
        log(f"[{n}/{len(order)}] {user_name(name)}: {len(todo)} task(s)")
        variant_start = time.perf_counter()
        if not cache_size_bytes(base_store_folder(VARIANTS[name].base)):
            run.cold_variants.append(name)  # its base has no stored embeddings yet: this variant encodes everything
        try:
            model = load_zoo_variant(meta.name)
        except Exception as exc:
            run.failures += [{"variant": name, "task": t, "error": f"{type(exc).__name__}: {exc}"} for t in todo]
            log(f"  failed to load: {exc}")
            continue
        evaluate_tasks(
            run, name, model, [task_objects[t] for t in todo], cache, batch_size=batch_size, progress=progress, log=log
        )
        run.seconds_by_variant[name] = round(time.perf_counter() - variant_start, 1)
        _record(out, run, start, before, finished=False)  # an interrupted run keeps its entry
    if run.failures and not run.items_run and not run.items_skipped_done:
        _record(out, run, start, before, finished=True, forget=True)
        _refuse_run_without_results(made, run)
    _record(out, run, start, before, finished=True)
    return run


def _refuse_run_without_results(made: Sequence[Path], run: StudyRun) -> None:
    """Every (variant, task) of this run failed and none was done before (typically: offline, the tasks' data not
    in any cache): no result, so no study.  This run's ``timing.json`` entry was taken out again (:func:`_record`);
    the folders it ``made`` are removed when nothing else is in them (another shard's results stay), and
    :class:`DataNotFoundError` says why in one line, naming the first failure."""
    from mteb_evalrank.errors import DataNotFoundError

    for folder in reversed(made):
        try:
            folder.rmdir()  # only when empty: what another shard wrote stays
        except OSError:
            pass
    first = run.failures[0]
    reason = " ".join(str(first["error"]).split())
    if len(reason) >= 480 and ". " in reason:  # cut to 500 characters by the run: end at its last whole sentence
        reason = reason[: reason.rfind(". ") + 1]
    raise DataNotFoundError(
        f"no task of shard {run.shard} could run ({len(run.failures)} failed, none done before); the first, "
        f"{first['task']}: {reason}"
    )
