"""MTEB's own leaderboard app (``mteb leaderboard``, extra ``mteb[leaderboard]``) on a local results folder,
with the plugin's benchmarks in its menu, offline.

Three facts about MTEB 2.26's app (``mteb/leaderboard/app.py``) shape this module; the app itself is used
unchanged:

- **Menu.** The sidebar is built from two module-level lists of ``mteb.benchmarks._leaderboard_menu``,
  ``GP_BENCHMARK_ENTRIES`` and ``R_BENCHMARK_ENTRIES``, which the app imports by name (the same list
  objects).  :func:`register_leaderboard_menu` (called by :mod:`mteb_evalrank.integration.registry` when
  ``mteb`` is imported) appends one :class:`MenuEntry` — ``EvalRank (mteb-evalrank)``: the ``EvalRank``
  suite, ``EvalRank(study)`` and ``WordSim`` — to ``GP_BENCHMARK_ENTRIES`` when that module is first
  imported.  Nothing is imported early: building the menu module builds every MTEB benchmark.
- **Offline.** At start-up the app reads a per-benchmark parquet in this order: the Hub dataset
  ``mteb/results`` (``cache_repo_id``), the local file ``<folder>/leaderboard/benchmark_results.parquet``
  (:attr:`mteb.ResultCache.leaderboard_parquet_path`), and otherwise it ``git clone``\\ s the public
  results repository (``ResultCache._rebuild_from_full_repository``; also what ``--rebuild`` forces).
  Offline the clone fails and the app does not start; online the Hub parquet wins over the folder.
  :func:`prepare_leaderboard_cache` writes the local parquet from the folder's own result files only
  (``include_remote=False``), per menu benchmark, exactly as the app's own rebuild does
  (``BenchmarkResults._to_results_df(benchmark.tasks)``); :func:`leaderboard_app` then builds the app
  with ``cache_repo_id=None`` so neither the Hub nor GitHub is asked.
- **Default benchmark.** The app opens on ``MTEB(Multilingual, v2)`` and fails (``"task_name" not
  found``) when the folder has no result for any of its tasks — a plugin-only folder.
  :func:`leaderboard_app` opens it on ``EvalRank`` instead by setting the ``DEFAULT_BENCHMARK_NAME``
  globals of the app and its selector (``?benchmark_name=...`` in the address still picks another).

``mteb-evalrank leaderboard FOLDER`` (:func:`launch`) does all three.  Plain ``mteb leaderboard
--cache-path FOLDER`` also shows the menu entry and works offline once the parquet is written
(``mteb-evalrank leaderboard FOLDER --prepare-only``), with ``HF_HUB_OFFLINE=1`` (else the Hub parquet is
tried first) and without ``--rebuild``, when the folder holds a result of a task of MTEB's default
benchmark.
"""

from __future__ import annotations

import importlib.abc
import sys
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

MENU_MODULE = "mteb.benchmarks._leaderboard_menu"
TABLE_MODULE = "mteb.leaderboard.table"
MENU_ENTRY_NAME = "EvalRank (mteb-evalrank)"
MENU_DESCRIPTION = "Benchmarks of the mteb-evalrank plugin (run locally; not part of MTEB)."
#: the benchmark the plugin's launcher opens on
DEFAULT_BENCHMARK = "EvalRank"


def _menu_benchmarks() -> list[Any]:
    import mteb

    from mteb_evalrank.integration.benchmarks import EVALRANK_NAME, STUDY_NAME, WORDSIM_NAME

    return [mteb.get_benchmark(name) for name in (EVALRANK_NAME, STUDY_NAME, WORDSIM_NAME)]


def add_menu_entry(menu_module) -> None:
    """Append the plugin's :class:`MenuEntry` to ``menu_module.GP_BENCHMARK_ENTRIES`` (in place, idempotent)."""
    entries = getattr(menu_module, "GP_BENCHMARK_ENTRIES", None)
    if entries is None:  # the module is still being executed; the finder adds the entry when it is done
        return
    if any(getattr(e, "name", None) == MENU_ENTRY_NAME for e in entries):
        return
    entries.append(
        menu_module.MenuEntry(
            name=MENU_ENTRY_NAME, description=MENU_DESCRIPTION, open=True, benchmarks=_menu_benchmarks()
        )
    )


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

    style.__mteb_evalrank__ = True
    return style


def patch_table_module(table_module) -> None:
    """Wrap the summary and per-task stylers of ``mteb.leaderboard.table`` (idempotent); see
    :func:`_without_empty_experiment_id`."""
    for name in ("_apply_summary_table_styling", "_apply_per_task_table_styling"):
        original = getattr(table_module, name, None)
        if original is not None and not getattr(original, "__mteb_evalrank__", False):
            setattr(table_module, name, _without_empty_experiment_id(original))


#: module name -> what to do right after MTEB executes it
_AFTER_IMPORT = {MENU_MODULE: add_menu_entry, TABLE_MODULE: patch_table_module}


class _AfterImportLoader(importlib.abc.Loader):
    """Runs the wrapped module, then the plugin's addition for it."""

    def __init__(self, wrapped, name: str) -> None:
        self._wrapped = wrapped
        self._name = name

    def create_module(self, spec):  # noqa: D102
        return self._wrapped.create_module(spec)

    def exec_module(self, module) -> None:  # noqa: D102
        self._wrapped.exec_module(module)
        try:
            _AFTER_IMPORT[self._name](module)
        except Exception as exc:  # noqa: BLE001 - the leaderboard must open even if the plugin's part cannot
            import warnings

            warnings.warn(f"mteb-evalrank: leaderboard hook for {self._name} failed: {exc!r}", RuntimeWarning, stacklevel=2)

    def __getattr__(self, name):
        return getattr(self._wrapped, name)


class _AfterImportFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):  # noqa: D102
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
    for name, action in _AFTER_IMPORT.items():
        module = sys.modules.get(name)
        if module is not None:
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


def _results_folder(folder: str | Path) -> Path:
    folder = Path(folder)
    if not (folder / "results").is_dir():
        raise InputError(f"{folder} is not an MTEB results folder (no {folder / 'results'}; run `mteb-evalrank run -o {folder}` first)")
    return folder


def prepare_leaderboard_cache(folder: str | Path) -> tuple[Path, dict[str, int]]:
    """Write ``<folder>/leaderboard/benchmark_results.parquet`` from the folder's own results.

    Returns the parquet's path and, per menu benchmark with results, the number of score rows.  Rebuilt
    from the result files every time (a few seconds for a local folder), so new runs always show.
    """
    import mteb
    from mteb.results import BenchmarkResults

    cache = mteb.ResultCache(_results_folder(folder))
    results = cache.load_results(only_main_score=True, require_model_meta=False, include_remote=False)
    frames = {b.name: results._to_results_df(b.tasks) for b in menu_benchmarks()}
    path = cache.leaderboard_parquet_path
    BenchmarkResults.save_leaderboard_cache(frames, path)
    return path, {name: frame.height for name, frame in frames.items() if frame.height}


def leaderboard_app(folder: str | Path, default_benchmark: str = DEFAULT_BENCHMARK):
    """MTEB's Gradio leaderboard app on ``folder``'s results, offline, opening on ``default_benchmark``."""
    try:
        import mteb.leaderboard.app as app_module
        import mteb.leaderboard.benchmark_selector as selector
    except ImportError as exc:
        raise InputError(f"the leaderboard needs MTEB's Gradio app: pip install 'mteb-evalrank[leaderboard]' ({exc})") from None
    import mteb

    mteb.get_benchmark(default_benchmark)  # an unknown name fails here, with MTEB's suggestions
    path, _ = prepare_leaderboard_cache(folder)
    for module in (app_module, selector):
        module.DEFAULT_BENCHMARK_NAME = default_benchmark
    return app_module.get_leaderboard_app(mteb.ResultCache(path.parent.parent), rebuild=False, cache_repo_id=None)


def launch(folder: str | Path, host: str = "127.0.0.1", port: int = 7860, default_benchmark: str = DEFAULT_BENCHMARK) -> None:
    """Serve :func:`leaderboard_app` on ``host:port`` until interrupted (as ``mteb leaderboard`` does)."""
    import gradio as gr

    app = leaderboard_app(folder, default_benchmark)
    print(f"MTEB leaderboard on {folder}: http://{host}:{port}/?benchmark_name={default_benchmark}", flush=True)
    app.launch(
        server_name=host,
        server_port=port,
        theme=gr.themes.Soft(font=[gr.themes.GoogleFont("Roboto Mono"), "Arial", "sans-serif"]),
    )
