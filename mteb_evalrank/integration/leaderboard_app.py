"""MTEB's own leaderboard app (``mteb leaderboard``, extra ``mteb[leaderboard]``) on a local results folder,
with the plugin's benchmarks in its menu and every model of the folder, offline.

Four facts about MTEB 2.26's app (``mteb/leaderboard/app.py``) shape this module; the app itself is used
unchanged:

- **Menu.** The sidebar is built from two module-level lists of ``mteb.benchmarks._leaderboard_menu``,
  ``GP_BENCHMARK_ENTRIES`` and ``R_BENCHMARK_ENTRIES``, which the app imports by name (the same list
  objects).  :func:`register_leaderboard_menu` (called by :mod:`mteb_evalrank.integration.registry` when
  ``mteb`` is imported) appends one :class:`MenuEntry` — ``EvalRank (mteb-evalrank)``: the ``EvalRank``
  suite, ``EvalRank(study)`` and ``WordSim`` — to ``GP_BENCHMARK_ENTRIES`` when that module is first
  imported.  Nothing is imported early: building the menu module builds every MTEB benchmark.
- **Models.** The app lists only models of MTEB's model registry and stops (``KeyError``) on any other
  name.  :func:`prepare_leaderboard_cache` files every model not in the registry under a marked name with
  a :class:`~mteb.models.ModelMeta` built from its ``model_meta.json``
  (:mod:`mteb_evalrank.integration.leaderboard_models`), adds those metas to the registry and writes them
  next to the parquet, where :func:`before_app` finds them for plain ``mteb leaderboard``.
- **Offline.** At start-up the app reads a per-benchmark parquet in this order: the Hub dataset
  ``mteb/results`` (``cache_repo_id``), the local file ``<folder>/leaderboard/benchmark_results.parquet``
  (:attr:`mteb.ResultCache.leaderboard_parquet_path`), and otherwise it ``git clone``\\ s the public
  results repository (``ResultCache._rebuild_from_full_repository``; also what ``--rebuild`` forces).
  Offline the clone fails and the app does not start; online the Hub parquet wins over the folder.
  :func:`prepare_leaderboard_cache` writes the local parquet from the folder's own result files only
  (``include_remote=False``), per menu benchmark, exactly as the app's own rebuild does
  (``BenchmarkResults._to_results_df(benchmark.tasks)``); the app is then built with
  ``cache_repo_id=None`` so neither the Hub nor GitHub is asked.
- **Default benchmark.** The app opens on ``MTEB(Multilingual, v2)`` and fails (``"task_name" not
  found``) when the folder has no result for any of its tasks — a plugin-only folder.  Both launchers open
  it on :func:`opening_benchmark` instead by setting the ``DEFAULT_BENCHMARK_NAME`` globals of the app and
  its selector (``?benchmark_name=...`` in the address still picks another).

``mteb-evalrank leaderboard FOLDER`` (:func:`launch`) does all four.  For plain ``mteb leaderboard
--cache-path FOLDER`` the import hook wraps ``mteb.leaderboard.app.get_leaderboard_app`` with
:func:`before_app` (registry, folder's own parquet, opening benchmark, or one line saying what to run) and
MTEB's CLI command with :func:`wrap_mteb_cli` (the plugin's errors as one line), once the folder's parquet
is written (``mteb-evalrank leaderboard FOLDER --prepare-only``) and without ``--rebuild``.
"""

from __future__ import annotations

import importlib.abc
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mteb_evalrank import mteb_internals
from mteb_evalrank.data.result_files import walk_result_files
from mteb_evalrank.errors import InputError
from mteb_evalrank.integration.leaderboard_models import (
    MODELS_FILE,
    NOT_IN_REGISTRY,
    FolderModel,
    folder_models,
    meta_fields,
    read_models_file,
    register_metas,
    write_models_file,
)

MENU_MODULE = "mteb.benchmarks._leaderboard_menu"
TABLE_MODULE = "mteb.leaderboard.table"
APP_MODULE = "mteb.leaderboard.app"
MTEB_CLI_MODULE = "mteb.cli.build_cli"
#: the benchmark MTEB's app opens on (``mteb.leaderboard.benchmark_selector.DEFAULT_BENCHMARK_NAME``)
MTEB_DEFAULT_BENCHMARK = "MTEB(Multilingual, v2)"
MENU_ENTRY_NAME = "EvalRank (mteb-evalrank)"
MENU_DESCRIPTION = "Benchmarks of the mteb-evalrank plugin (run locally; not part of MTEB)."


def _menu_benchmarks() -> list[Any]:
    import mteb

    from mteb_evalrank.integration.benchmarks import EVALRANK_NAME, STUDY_NAME, WORDSIM_NAME

    return [mteb.get_benchmark(name) for name in (EVALRANK_NAME, STUDY_NAME, WORDSIM_NAME)]


#: the menu lists of ``mteb.benchmarks._leaderboard_menu`` that get the plugin's entry: the Gradio app's sidebar
#: (``GP_BENCHMARK_ENTRIES``) and the home menu of MTEB's API backend (``HOME_BENCHMARK_ENTRIES``: ``/v1/benchmarks/menu``,
#: and ``Benchmark.display_on_leaderboard``, which decides what ``/v1/benchmarks`` lists)
MENU_LISTS = ("GP_BENCHMARK_ENTRIES", "HOME_BENCHMARK_ENTRIES")


def add_menu_entry(menu_module) -> None:
    """Append the plugin's :class:`MenuEntry` to each list of :data:`MENU_LISTS` (in place, idempotent)."""
    found = [getattr(menu_module, name, None) for name in MENU_LISTS]
    lists = [entries for entries in found if entries is not None]
    if len(lists) != len(found):  # still being executed; the finder adds the entry when it is done
        return
    entry = None
    for entries in lists:
        if any(getattr(e, "name", None) == MENU_ENTRY_NAME for e in entries):
            continue
        if entry is None:
            entry = menu_module.MenuEntry(
                name=MENU_ENTRY_NAME, description=MENU_DESCRIPTION, open=True, benchmarks=_menu_benchmarks()
            )
        entries.append(entry)


#: the text column MTEB 2.26.24's summary and per-task tables carry (``_create_table._EXPERIMENT_ID_COL``)
EXPERIMENT_ID_COLUMN = "_experiment_id"


def _without_empty_experiment_id(styler):
    """``styler`` (one of the app's ``_apply_*_table_styling``) given the table without an all-empty
    ``_experiment_id`` column.

    MTEB 2.26.24's summary and per-task tables keep that text column (empty for plain runs, set for
    experiment variants; ``mteb.benchmarks._create_table._order_summary_cols``), but the Gradio app's stylers
    treat every column they do not exclude by name as a score: ``round("" * 100, 2)`` and ``"{:.2f}"`` stop
    every table build (``TypeError``/``ValueError``), so the app cannot start on any results.  Dropping the
    column when no row names an experiment leaves every figure as MTEB computes it.
    """
    import functools

    @functools.wraps(styler)
    def style(table, *args, **kwargs):
        column = table.get(EXPERIMENT_ID_COLUMN) if hasattr(table, "get") else None
        if column is not None and not column.fillna("").astype(str).str.len().any():
            table = table.drop(columns=[EXPERIMENT_ID_COLUMN])
        return styler(table, *args, **kwargs)

    style.__mteb_evalrank__ = True  # type: ignore[attr-defined]
    return style


def patch_table_module(table_module) -> None:
    """Wrap the summary and per-task stylers of ``mteb.leaderboard.table`` (idempotent); see
    :func:`_without_empty_experiment_id`."""
    for name in ("_apply_summary_table_styling", "_apply_per_task_table_styling"):
        original = getattr(table_module, name, None)
        if original is not None and not getattr(original, "__mteb_evalrank__", False):
            setattr(table_module, name, _without_empty_experiment_id(original))


#: module name -> what to do right after MTEB executes it
_AFTER_IMPORT = {
    MENU_MODULE: add_menu_entry,
    TABLE_MODULE: patch_table_module,
    APP_MODULE: lambda module: wrap_app_module(module),
    MTEB_CLI_MODULE: lambda module: wrap_mteb_cli(module),
    # + "mteb.api.frames" (MTEB's FastAPI backend), added by leaderboard_api.register_api_hook
}


class _AfterImportLoader(importlib.abc.Loader):
    """Runs the wrapped module, then the plugin's addition for it."""

    def __init__(self, wrapped, name: str) -> None:
        self._wrapped = wrapped
        self._name = name

    def create_module(self, spec):
        return self._wrapped.create_module(spec)

    def exec_module(self, module) -> None:
        self._wrapped.exec_module(module)
        from mteb_evalrank import mteb_internals

        line = mteb_internals.check_module(self._name, module)
        if line is not None:  # an internal of this module changed: leave it as MTEB made it
            mteb_internals.warn(line)
            return
        try:
            _AFTER_IMPORT[self._name](module)
        except Exception as exc:
            import warnings

            warnings.warn(
                f"mteb-evalrank: leaderboard hook for {self._name} failed: {exc!r}", RuntimeWarning, stacklevel=2
            )

    def __getattr__(self, name):
        return getattr(self._wrapped, name)


class _AfterImportFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _AFTER_IMPORT:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _AfterImportLoader(spec.loader, fullname)
                return spec
        return None


_FINDER = _AfterImportFinder()


def register_leaderboard_menu() -> None:
    """Add the plugin's menu entry (and the table fix) to MTEB's leaderboard modules: now for those already
    imported, and when imported for the others (a finder on ``sys.meta_path`` that stays for both)."""
    from mteb_evalrank import mteb_internals

    for name, action in _AFTER_IMPORT.items():
        module = sys.modules.get(name)
        if module is not None:
            # a module still being executed is checked by the after-import loader when it is done
            initializing = getattr(getattr(module, "__spec__", None), "_initializing", False)
            line = None if initializing else mteb_internals.check_module(name, module)
            if line is not None:
                mteb_internals.warn(line)
                continue
            action(module)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def menu_benchmarks() -> list[Any]:
    """Every benchmark of the leaderboard menu (MTEB's and the plugin's), as the app collects them."""
    menu = importlib.import_module(MENU_MODULE)
    import mteb

    seen: dict[str, Any] = {}
    pending = [*menu.GP_BENCHMARK_ENTRIES, *menu.R_BENCHMARK_ENTRIES]
    while pending:
        entry = pending.pop()
        if isinstance(entry, mteb.Benchmark):
            seen.setdefault(entry.name, entry)
        else:
            pending.extend(entry.benchmarks)
    return list(seen.values())


def _result_files(folder: str | Path) -> tuple[Path, list[Path]]:
    """``folder`` and its result files (``results/<org>__<model>/<revision>/<Task>.json``, as MTEB's
    :meth:`~mteb.ResultCache.load_results` finds them); :class:`InputError` when there are none."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder (give the --output-folder of `mteb-evalrank run`)")
    results = folder / "results"
    # MTEB's own loader (ResultCache.load_results) opens every result file: a FIFO would block it forever
    files = walk_result_files(results, exact_root=True, special="error")
    if not files:
        raise InputError(
            f"{folder} holds no MTEB result file (expected {results}/<org>__<model>/<revision>/<Task>.json): run e.g. "
            f"`mteb-evalrank run -m MODEL -t EvalRankWord --output-folder {folder}` first"
        )
    return folder, files


def _unreadable_file(files: list[Path], exc: Exception) -> str:
    """One line naming the result file MTEB's loader stopped on (found by reading each file again)."""
    import mteb

    for path in files:
        try:
            mteb.TaskResult.from_disk(path)
        except Exception as file_exc:
            first = (str(file_exc).strip().splitlines() or [type(file_exc).__name__])[0]
            return (
                f"{path}: not an MTEB result file ({type(file_exc).__name__}: {first[:200]}); fix it, or move it "
                "out of the results folder"
            )
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return f"MTEB could not read the results ({type(exc).__name__}: {first[:200]})"


@dataclass
class FolderResults:
    """A results folder as the leaderboards show it (:func:`load_folder_results`)."""

    folder: Path
    files: list[Path]  # its result files
    models: list[FolderModel]
    fields: list[dict[str, Any]]  # the metas of its unregistered models (:func:`~.leaderboard_models.meta_fields`)
    results: Any  # mteb.results.BenchmarkResults, models under their leaderboard names
    cache: Any  # mteb.ResultCache on the folder


def load_folder_results(folder: str | Path) -> FolderResults:
    """The folder's own results (never the remote repository), every model under the name the leaderboards
    show (:mod:`~.leaderboard_models`), with the metas of the unregistered ones added to MTEB's model registry.

    :class:`InputError` (one line) when the folder holds no result file, a malformed ``model_meta.json`` or a
    result file MTEB cannot read.  Shared by the Gradio app's parquet and MTEB's API backend
    (:mod:`mteb_evalrank.integration.leaderboard_api`).
    """
    import mteb
    from mteb.results import BenchmarkResults

    folder, files = _result_files(folder)
    models = folder_models(folder)
    fields = [meta_fields(m) for m in models if not m.registered]
    register_metas(fields)
    cache = mteb.ResultCache(folder)
    try:
        results = cache.load_results(only_main_score=True, require_model_meta=False, include_remote=False)
    except Exception as exc:
        raise InputError(_unreadable_file(files, exc)) from None
    display = {m.key: m.display for m in models}
    renamed = [
        mr.model_copy(update={"model_name": display.get((mr.model_name, mr.model_revision), mr.model_name)})
        for mr in results.model_results
    ]
    results = BenchmarkResults.model_construct(model_results=renamed, benchmark=None)
    return FolderResults(folder=folder, files=files, models=models, fields=fields, results=results, cache=cache)


@dataclass
class PreparedLeaderboard:
    """What :func:`prepare_leaderboard_cache` wrote."""

    path: Path  # the parquet
    rows: dict[str, int]  # menu benchmark -> score rows (benchmarks with results only)
    models: list[FolderModel]
    notes: list[str] = field(default_factory=list)  # one line each, for the user

    @property
    def unregistered(self) -> list[FolderModel]:
        return [m for m in self.models if not m.registered]


def prepare_leaderboard_cache(folder: str | Path) -> PreparedLeaderboard:
    """Write ``<folder>/leaderboard/benchmark_results.parquet`` from the folder's own results, and next to it
    the metas of its models that are not in MTEB's registry (:data:`~.leaderboard_models.MODELS_FILE`).

    Every model is written: unregistered ones under their marked name
    (:mod:`mteb_evalrank.integration.leaderboard_models`), registered in MTEB's registry in this process.
    Rebuilt from the result files every time (a few seconds for a local folder), so new runs always show.
    Raises :class:`InputError` (one line; nothing written) when there is nothing to show: no result file, a
    malformed ``model_meta.json`` or result file, or no result for a task of any benchmark of the menu.
    """
    from mteb.results import BenchmarkResults

    from mteb_evalrank.data.files import check_output_dir

    loaded = load_folder_results(folder)
    folder, files, models, fields, results = loaded.folder, loaded.files, loaded.models, loaded.fields, loaded.results
    cache = loaded.cache
    path = Path(cache.leaderboard_parquet_path)
    # FOLDER/leaderboard: a file there, a read-only results folder: one line before the tables are built
    check_output_dir(path.parent, what="leaderboard folder")
    frames = {b.name: results._to_results_df(b.tasks) for b in menu_benchmarks()}
    rows = {name: frame.height for name, frame in frames.items() if frame.height}

    registry = mteb_internals.task_registry()  # MTEB's tasks and the plugin's
    shown = {t.metadata.name for b in menu_benchmarks() for t in b.tasks}
    tasks = {tr.task_name for mr in results.model_results for tr in mr.task_results}
    unknown = sorted(t for t in tasks if t not in registry)
    elsewhere = sorted(t for t in tasks if t in registry and t not in shown)
    not_shown = ""
    if unknown:
        not_shown += f"tasks unknown to MTEB and mteb-evalrank: {', '.join(unknown)}"
    if elsewhere:
        not_shown += ("; " if not_shown else "") + f"tasks of no benchmark of the menu: {', '.join(elsewhere)}"
    if not rows:
        raise InputError(
            f"nothing to show: none of the {len(files)} result file(s) in {folder} is for a task of a leaderboard "
            f"benchmark ({not_shown or 'no score of a benchmark split'}); nothing was written. Run a task of the "
            "menu, e.g. `mteb-evalrank run -m MODEL -t EvalRankWord`"
        )
    try:
        BenchmarkResults.save_leaderboard_cache(frames, path)
        write_models_file(path.with_name(MODELS_FILE), fields)
    except OSError as exc:  # writable when checked above; the disk filled up or the mount changed since
        raise InputError(
            f"cannot write the leaderboard cache {path}: {exc.strerror or type(exc).__name__}; the results are "
            "unchanged: free space, or copy the results folder somewhere writable and run it there."
        ) from exc
    notes = []
    if not_shown:
        notes.append(f"not shown ({not_shown}); the files are left as they are")
    for name in sorted({m.name for m in models if not m.registered and " @ " in m.display}):
        revs = sorted(str(m.revision) for m in models if m.name == name)
        newest = next(m.revision for m in models if m.name == name and m.display == name)
        notes.append(
            f"{name}: results of {len(revs)} revisions ({', '.join(revs)}), one row each: the newest ({newest}) as "
            f"'{name}', the others as '{name} @ REVISION'"
        )
    return PreparedLeaderboard(path=path, rows=rows, models=models, notes=notes)


def opening_benchmark(rows: dict[str, Any]) -> str:
    """The benchmark to open on, among those with results: the plugin's (``EvalRank`` first), then MTEB's
    default, then the one with most rows."""
    from mteb_evalrank.integration.benchmarks import EVALRANK_NAME, STUDY_NAME, WORDSIM_NAME

    for name in (EVALRANK_NAME, STUDY_NAME, WORDSIM_NAME, MTEB_DEFAULT_BENCHMARK):
        if rows.get(name):
            return name
    return max(sorted(rows), key=lambda name: len(rows[name]) if isinstance(rows[name], set) else rows[name])


def _set_default_benchmark(name: str) -> None:
    import mteb.leaderboard.app as app_module
    import mteb.leaderboard.benchmark_selector as selector

    for module in (app_module, selector):
        module.DEFAULT_BENCHMARK_NAME = name  # type: ignore[attr-defined]


def _parquet_models(parquet: Path) -> dict[str, set[str]]:
    """{benchmark: model names} of a leaderboard parquet (only the two columns are read)."""
    import polars as pl
    from mteb.results import BenchmarkResults
    from mteb.results.benchmark_results import _BENCHMARK_COLUMN

    try:
        columns = pl.read_parquet_schema(parquet)
        if _BENCHMARK_COLUMN in columns and "model_name" in columns:
            frame = pl.read_parquet(parquet, columns=[_BENCHMARK_COLUMN, "model_name"])
            groups = frame.group_by(_BENCHMARK_COLUMN).agg(pl.col("model_name").unique())
            return {row[0]: set(row[1]) for row in groups.iter_rows()}
        frames = BenchmarkResults.load_leaderboard_cache(parquet)
    except Exception as exc:
        raise InputError(
            f"{parquet}: cannot read the leaderboard file ({type(exc).__name__}); write it again with "
            f"`mteb-evalrank leaderboard {parquet.parent.parent} --prepare-only`"
        ) from None
    return {
        name: set(f["model_name"].unique().to_list())
        for name, f in frames.items()
        if not f.is_empty() and "model_name" in f.columns
    }


def _plugin_results(folder: Path) -> bool:
    """Whether ``folder/results`` holds a result of a plugin task or of a model not in MTEB's registry."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    from mteb_evalrank.data.result_files import revision_folders
    from mteb_evalrank.integration.task_lookup import is_plugin_task
    from mteb_evalrank.results.record import read_folder_files

    results = folder / "results"
    if any(is_plugin_task(path.stem) for path in walk_result_files(results, exact_root=True)):
        return True
    for rev_dir in revision_folders(results, exact_root=True):
        files = read_folder_files(rev_dir)  # the one reader's model_meta.json, read once
        meta = files.meta
        if files.meta_problem is not None:  # unreadable: the app would stop on it
            return True
        if meta is not None and meta.get("name") not in MODEL_REGISTRY:
            return True
    return False


def before_app(cache, *, rebuild: bool, cache_repo_id: str | None) -> str | None:
    """What the plugin does before MTEB's ``get_leaderboard_app(cache, rebuild, cache_repo_id)`` builds the app
    (also for plain ``mteb leaderboard --cache-path FOLDER``); returns the ``cache_repo_id`` to build it with.

    - A folder prepared by the plugin (it has :data:`~.leaderboard_models.MODELS_FILE`): its unregistered
      models' metas are added to MTEB's registry, and the app reads the folder's own parquet, not the Hub's
      public one (``cache_repo_id=None``).
    - When the app reads a local parquet: every model in it must be in the registry (else: prepare again), it
      must hold some result, and when it has none for the app's opening benchmark (MTEB's
      ``MTEB(Multilingual, v2)``) the app opens on :func:`opening_benchmark` instead.
    - A folder with plugin results but no parquet: MTEB would clone the public results repository; this
      stops and says what to run.
    - ``rebuild=True`` (``--rebuild``) and MTEB's own caches are left to MTEB.
    """
    import mteb.leaderboard.app as app_module

    from mteb_evalrank.models.resolve import hub_offline

    if rebuild:
        return cache_repo_id
    folder = Path(cache.cache_path)
    parquet = Path(cache.leaderboard_parquet_path)
    models_file = parquet.with_name(MODELS_FILE)
    if models_file.is_file() and parquet.is_file():
        register_metas(read_models_file(models_file))
        cache_repo_id = None
    elif not (parquet.is_file() and (not cache_repo_id or hub_offline())):
        if not parquet.is_file() and _plugin_results(folder):
            raise InputError(
                f"{folder} has results but no leaderboard file ({parquet}): run `mteb-evalrank leaderboard {folder}`, "
                f"or `mteb-evalrank leaderboard {folder} --prepare-only` and then this command again"
            )
        return cache_repo_id
    models = _parquet_models(parquet)
    if not models:
        raise InputError(
            f"{parquet} holds no result: run `mteb-evalrank leaderboard {folder} --prepare-only` after "
            f"`mteb-evalrank run ... --output-folder {folder}`"
        )
    from mteb.models.model_implementations import MODEL_REGISTRY

    missing = sorted({m for names in models.values() for m in names if m not in MODEL_REGISTRY})
    if missing:
        raise InputError(
            f"{parquet} lists {len(missing)} model(s) MTEB's registry does not know (e.g. {missing[0]!r}): write it "
            f"again with `mteb-evalrank leaderboard {folder} --prepare-only`"
        )
    if not models.get(app_module.DEFAULT_BENCHMARK_NAME):
        name = opening_benchmark(models)
        print(
            f"mteb-evalrank: {folder} has no result for {app_module.DEFAULT_BENCHMARK_NAME}; the leaderboard opens on "
            f"{name}",
            file=sys.stderr,
            flush=True,
        )
        _set_default_benchmark(name)
    return cache_repo_id


def wrap_app_module(app_module) -> None:
    """Run :func:`before_app` in ``mteb.leaderboard.app.get_leaderboard_app`` (idempotent).  Set when that module
    is imported, before ``mteb.leaderboard`` re-exports the function, so ``mteb leaderboard`` calls it too."""
    import functools
    import inspect

    original = getattr(app_module, "get_leaderboard_app", None)
    if original is None or getattr(original, "__mteb_evalrank__", False):
        return
    signature = inspect.signature(original)

    @functools.wraps(original)
    def get_leaderboard_app(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        params = bound.arguments
        params["cache_repo_id"] = before_app(
            params["cache"], rebuild=params["rebuild"], cache_repo_id=params["cache_repo_id"]
        )
        return original(*bound.args, **bound.kwargs)

    get_leaderboard_app.__mteb_evalrank__ = True  # type: ignore[attr-defined]
    app_module.get_leaderboard_app = get_leaderboard_app


def wrap_mteb_cli(cli_module) -> None:
    """``mteb leaderboard``: the plugin's own errors (:class:`~mteb_evalrank.errors.EvalRankError`) as one line
    and exit status 2, as ``mteb-evalrank`` prints them, instead of a traceback (idempotent)."""
    import functools

    original = getattr(cli_module, "_leaderboard", None)
    if original is None or getattr(original, "__mteb_evalrank__", False):
        return

    @functools.wraps(original)
    def _leaderboard(args):
        from mteb_evalrank.errors import EvalRankError

        try:
            return original(args)
        except EvalRankError as exc:
            print(f"mteb leaderboard: error: {exc}", file=sys.stderr, flush=True)
            raise SystemExit(2) from None

    _leaderboard.__mteb_evalrank__ = True  # type: ignore[attr-defined]
    cli_module._leaderboard = _leaderboard


def leaderboard_app(folder: str | Path, default_benchmark: str | None = None):
    """MTEB's Gradio leaderboard app on ``folder``'s results, offline, opening on ``default_benchmark`` (default:
    :func:`opening_benchmark` of the folder's results).  Returns ``(app, prepared)``."""
    import mteb

    if default_benchmark is not None:
        try:
            mteb.get_benchmark(default_benchmark)
        except KeyError as exc:  # MTEB's message carries its suggestions
            raise InputError(f"--benchmark {default_benchmark}: {exc.args[0] if exc.args else exc}") from None
    prepared = prepare_leaderboard_cache(folder)  # before the app is imported: bad input fails fast, in one line
    try:
        import mteb.leaderboard.app as app_module
    except ImportError as exc:
        raise InputError(
            f"the leaderboard needs MTEB's Gradio app: pip install 'mteb-evalrank[leaderboard]' ({exc})"
        ) from None
    if default_benchmark is None:
        default_benchmark = opening_benchmark(prepared.rows)
    elif default_benchmark not in prepared.rows:
        raise InputError(
            f"{folder} has no result for a task of {default_benchmark}; benchmarks with results: "
            f"{', '.join(sorted(prepared.rows))}"
        )
    _set_default_benchmark(default_benchmark)
    cache = mteb.ResultCache(prepared.path.parent.parent)
    # None: no remote cache (MTEB's app then reads the local results only)
    return app_module.get_leaderboard_app(cache, rebuild=False, cache_repo_id=None), prepared  # type: ignore[arg-type]


def check_port(host: str, port: int) -> None:
    """:class:`InputError` (one line, with a free port to use) when ``host:port`` cannot be served on."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise InputError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            with socket.socket(family, kind, proto) as free:
                free.bind((address[0], 0, *address[2:]))
                other = free.getsockname()[1]
            raise InputError(
                f"cannot serve on {host}:{port} ({exc.strerror or exc}): the port is taken; pass another "
                f"--port, e.g. --port {other}"
            ) from None


def launch(
    folder: str | Path,
    host: str = "127.0.0.1",
    port: int = 7860,
    default_benchmark: str | None = None,
    on_ready=print,
    after_build=None,
) -> None:
    """Serve :func:`leaderboard_app` on ``host:port`` until interrupted (as ``mteb leaderboard`` does).
    ``on_ready`` gets each line to show the user (notes, then the address); ``after_build(benchmark)`` runs once
    the app is built (``leaderboard`` writes the opening benchmark's rank intervals beside it): a benchmark or a
    folder the app refuses writes nothing."""
    check_port(host, port)  # before the app is built: a taken port fails at once
    app, prepared = leaderboard_app(folder, default_benchmark)
    if after_build is not None:
        after_build(_current_default())
    import gradio as gr  # installed: leaderboard_app imported MTEB's app

    for note in prepared.notes:
        on_ready(f"note: {note}")
    if prepared.unregistered:
        on_ready(
            f"{len(prepared.unregistered)} model(s) {NOT_IN_REGISTRY}, listed under their own names: "
            + ", ".join(sorted(m.name for m in prepared.unregistered))
        )
    name = _current_default()
    on_ready(f"MTEB leaderboard on {folder}: http://{host}:{port}/?benchmark_name={quote(name)}")
    try:
        app.launch(
            server_name=host,
            server_port=port,
            theme=gr.themes.Soft(font=[gr.themes.GoogleFont("Roboto Mono"), "Arial", "sans-serif"]),
        )
    except OSError as exc:  # taken since the check
        raise InputError(f"cannot serve on {host}:{port} ({exc}); pass another --port") from None


def _current_default() -> str:
    import mteb.leaderboard.app as app_module

    return app_module.DEFAULT_BENCHMARK_NAME
