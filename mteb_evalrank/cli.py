"""``mteb-evalrank`` command line: run tasks, build and publish datasets, reports.

Sub-commands are defined by small ``add_*_parser(subparsers)`` functions; each feature module that
contributes a command is listed in :data:`COMMAND_MODULES` and exposes ``add_cli(subparsers)``.
Parser construction must stay cheap (heavy imports happen inside the command functions).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path

from mteb_evalrank.errors import EvalRankError

#: Feature modules that add sub-commands (each exposes ``add_cli(subparsers)``).
COMMAND_MODULES: list[str] = ["mteb_evalrank.n2o_compare", "mteb_evalrank.heros_report"]

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


# --- run ---------------------------------------------------------------------------------------
def _cmd_run(args: argparse.Namespace) -> int:
    import mteb

    from mteb_evalrank.models import load_model
    from mteb_evalrank.results_table import format_scores_table, task_scores_rows
    from mteb_evalrank.tasks_lookup import get_tasks_or_explain

    tasks = get_tasks_or_explain(args.tasks)
    if args.no_center or args.ties != "pessimistic":
        for task in tasks:
            if hasattr(task, "center"):
                task.center = not args.no_center
                task.ties = args.ties
    model = load_model(
        args.model,
        device=args.device,
        revision=args.model_revision,
        stop_words=args.stop_words,
        strip_punctuation=args.strip_punctuation,
    )
    encode_kwargs = {"show_progress_bar": not args.no_progress}
    if args.batch_size:
        encode_kwargs["batch_size"] = args.batch_size
    cache = mteb.ResultCache(args.output_folder)
    result = mteb.evaluate(
        model,
        tasks,
        cache=cache,
        encode_kwargs=encode_kwargs,
        overwrite_strategy=args.overwrite_strategy,
        show_progress_bar=True,
    )
    meta = model.mteb_model_meta
    print(f"\nmodel: {meta.name}  revision: {meta.revision}")
    print(format_scores_table(task_scores_rows(result.task_results)))
    print(f"\nresults: {cache.get_task_result_path(tasks[0].metadata.name, meta).parent}")
    for err in result.exceptions or []:
        print(f"error in {err.task_name}: {err.exception}", file=sys.stderr)
    return 1 if result.exceptions else 0


def add_run_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "run",
        help="evaluate a model on plugin (or any MTEB) tasks and print a score table",
        description="Evaluate a model with mteb.evaluate; results go to the standard MTEB cache layout "
        "OUTPUT/results/<org>__<model>/<revision>/<Task>.json.",
    )
    p.add_argument(
        "-m",
        "--model",
        default=DEFAULT_MODEL,
        help="MTEB model name, SentenceTransformer folder, word-vector file (.txt/.vec, or .npy with a "
        f"vocabulary) or 'glove-6b-50d' (default: {DEFAULT_MODEL})",
    )
    p.add_argument("--model-revision", default=None, help="model revision (MTEB/Hub models)")
    p.add_argument("-t", "--tasks", nargs="+", required=True, help="task names, e.g. EvalRankWord EvalRankSent")
    p.add_argument("--output-folder", default="results", help="result cache folder (default: results)")
    p.add_argument("--batch-size", type=int, default=None, help="encode batch size")
    p.add_argument("--device", default=None, help="torch device, e.g. cpu or cuda:0")
    p.add_argument("--no-progress", action="store_true", help="hide the encoding progress bar")
    p.add_argument(
        "--overwrite-strategy",
        default="only-missing",
        choices=["always", "never", "only-missing", "only-cache"],
        help="reuse existing results (default only-missing: finished subsets are not recomputed)",
    )
    p.add_argument(
        "--stop-words",
        default=None,
        choices=["sbert"],
        help="word-vector models: drop sentence-transformers' English stop words (includes 'not')",
    )
    p.add_argument(
        "--strip-punctuation",
        action="store_true",
        help="word-vector models: sentence-transformers' punctuation handling",
    )
    p.add_argument("--no-center", action="store_true", help="EvalRank: do not mean-centre embeddings")
    p.add_argument(
        "--ties",
        default="pessimistic",
        choices=["pessimistic", "optimistic"],
        help="EvalRank tie rule (default pessimistic: ties count against the positive)",
    )
    p.set_defaults(func=_cmd_run)


# --- datasets ----------------------------------------------------------------------------------
def _cmd_build_data(args: argparse.Namespace) -> int:
    from mteb_evalrank.hub_datasets import BUILDERS

    report = BUILDERS[args.name].build(Path(args.sources), Path(args.out))
    for key, value in report.items():
        print(f"{key}={value}")
    print(f"built {args.name} into {args.out}")
    return 0


def _cmd_push_data(args: argparse.Namespace) -> int:
    from mteb_evalrank.hub_datasets.push import push_dataset

    folder = Path(args.folder or args.name)
    push_dataset(args.name, folder, args.repo_id, dry_run=args.dry_run, private=args.private)
    return 0


def add_data_parsers(subparsers) -> None:
    from mteb_evalrank.hub_datasets import DATASET_NAMES

    p = subparsers.add_parser("build-data", help="build a dataset from raw source files (Hub layout)")
    p.add_argument("name", choices=DATASET_NAMES)
    p.add_argument("--sources", required=True, help="folder of raw source files (layout of shared/data/sources)")
    p.add_argument("--out", required=True, help="output folder (Hub layout: parquet configs + README.md card)")
    p.set_defaults(func=_cmd_build_data)

    p = subparsers.add_parser("push-data", help="publish a built dataset to the Hugging Face Hub")
    p.add_argument("name", choices=DATASET_NAMES)
    p.add_argument("--repo-id", required=True, help="Hub dataset repository, ORG/NAME")
    p.add_argument("--folder", default=None, help="built dataset folder (default: ./NAME)")
    p.add_argument("--dry-run", action="store_true", help="validate and list what would be uploaded")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.set_defaults(func=_cmd_push_data)


# --- entry point -------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mteb-evalrank",
        description="EvalRank, HEROS and N2O for MTEB: run tasks, build/publish datasets, reports.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show INFO logs")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_run_parser(sub)
    add_data_parsers(sub)
    for module in COMMAND_MODULES:
        importlib.import_module(module).add_cli(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    try:
        return int(args.func(args) or 0)
    except EvalRankError as exc:  # user-facing errors: one clear line, no traceback
        print(f"mteb-evalrank: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("interrupted; finished subsets are saved in the result folder", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
