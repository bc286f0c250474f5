"""Sub-commands of ``mteb-evalrank`` that read results: sts-by-level, study / study-population, correlate, report,
prepare-submission, compare, leaderboard, export-upstream.  Each is an ``add_*_parser(subparsers)`` and a ``_cmd_*``
that turns the parsed arguments into one call of a plain function (argument parsing only)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mteb_evalrank.cli_options import (  # noqa: F401
    DEFAULT_MODEL,
    MAX_RESAMPLES,
    UniqueNames,
    UniqueNamesAdded,
    UniquePaths,
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
    input_folder_arg,
    input_path_arg,
    name_arg,
    non_negative_int,
    output_file_arg,
    output_folder_arg,
    port_arg,
    positive_int,
    seed_arg,
    shard_arg,
    title_arg,
)
from mteb_evalrank.errors import InputError


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
    """Add `sts-by-level`: STS Spearman within gold-score bins from saved predictions."""
    p = subparsers.add_parser(
        "sts-by-level",
        help="STS Spearman within gold-score bins (EvalRank Fig. 2, RankEncoder Fig. 7) from saved predictions",
    )
    p.add_argument(
        "folders",
        nargs="+",
        action=UniquePaths,
        metavar="FOLDER",
        help="prediction folders (mteb run --prediction-folder), one per model",
    )
    p.add_argument("--task", default="SentEvalSTSB", help="STS task (default SentEvalSTSB)")
    p.add_argument("--bins", default="0-2,2-4,4-5", help="gold-score bins (default 0-2,2-4,4-5)")
    p.add_argument("--subset", default="default", help="subset of the task (default 'default')")
    p.add_argument("--split", default="test")
    p.add_argument("--out", type=output_file_arg, help="bar chart of the bins (PNG or SVG)")
    _add_resamples_arg(p)
    p.set_defaults(func=_cmd_sts_by_level)


def _cmd_study(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.study import study_command

    if args.plan:
        return _cmd_study_plan(args)
    if args.out is None:
        raise InputError("study: --out is required (the study folder), except with --models FILE --plan.")
    if args.correlate_only and args.shard is not None:  # a shard of the runs; --correlate-only runs nothing
        raise InputError(
            f"--shard {args.shard} splits the runs, and --correlate-only runs nothing: the report reads every "
            "shard's results; drop --shard."
        )
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


def _cmd_study_plan(args: argparse.Namespace) -> int:
    """``study --models FILE --plan``: the list's power and cost, from the committed study; loads no model."""
    from mteb_evalrank.reports.study_plan import plan_command

    if args.models is None:
        raise InputError("--plan plans a model list: give --models FILE (or a shipped list: hub, table9).")
    ignored = [
        o for o, v in (("--correlate-only", args.correlate_only), ("--shard", args.shard), ("--zoo", args.zoo)) if v
    ]
    if ignored or args.device is not None or args.tasks:
        raise InputError(f"--plan runs nothing and reads no result: drop {', '.join(ignored) or '--device/--tasks'}.")
    return plan_command(args.models, level=args.level, n_resamples=max(args.n_resamples, 2000))


def _zoo_help() -> str:
    """The help of ``study --zoo``; its base names come from the zoo catalogue."""
    from mteb_evalrank.errors import EvalRankError
    from mteb_evalrank.zoo.catalogue import example_base, slow_bases

    try:
        slow = " and ".join(slow_bases())
        base = example_base()
    except EvalRankError:  # a bad MTEB_EVALRANK_CATALOGUE: refused in one line when the command runs, not here
        slow, base = "", "BASE"
    return (
        "'population' (the sentence level's default: every installed sentence-level variant of all families"
        + (f" but the slow {slow}" if slow else "")
        + "), 'study' (the first study's variants, without the wider population's bases), 'word' (the word "
        f"level's default), 'all', base names ({base}) or variants ({base}/cls)"
    )


def add_study_parser(subparsers) -> None:
    """Add `study`: run the zoo variants on the study's tasks, then correlate intrinsic with downstream scores."""
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
        help=_zoo_help(),
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
    p.add_argument(
        "--out", type=output_folder_arg, default=None, help="study folder (results/, report, timing.json); required"
    )
    p.add_argument(
        "--plan",
        action="store_true",
        help="with --models: print the list's expected minimum detectable difference, power and GPU-hours from "
        "the committed study's lineages; loads no model (docs/running-the-study.md)",
    )
    p.add_argument(
        "--tasks",
        nargs="+",
        action=UniqueNames,
        default=None,
        metavar="TASK",
        help="default: the study's intrinsic and downstream tasks",
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

    if args.from_registry == [] and args.models is None:  # the flag alone: count the registry's lineages
        if args.out is not None:
            raise InputError(
                "--from-registry without names counts the registry's lineages and writes nothing: drop --out."
            )
        from mteb_evalrank.integration.registry_count import registry_count

        print(registry_count().line())
        return 0
    if args.out is None:
        raise InputError("study-population: --out is required (the model list to write).")
    return study_population_command(args.from_registry or [], args.models, args.out)


def add_study_population_parser(subparsers) -> None:
    """Add `study-population`: a model list for `study --models` from MTEB's registry."""
    p = subparsers.add_parser(
        "study-population",
        help="a model list for study --models from MTEB's registry: lineage from ModelMeta.adapted_from chains, "
        "parameter counts and estimated GPU-hours",
    )
    p.add_argument(
        "--from-registry",
        nargs="*",
        default=None,
        metavar="NAME",
        help="MTEB registry model names; with no name (and no --models): count the lineages among every "
        "open-weights text encoder of the registry, from metadata only (an upper bound), and write nothing",
    )
    p.add_argument(
        "--models",
        type=Path,
        default=None,
        metavar="FILE",
        help="a CSV with a model column (registry names); empty lineage cells are filled from the registry",
    )
    p.add_argument("--out", type=output_file_arg, default=None, help="the model list to write (CSV); required")
    p.set_defaults(func=_cmd_study_population)


# --- correlate ---------------------------------------------------------------------------------
def _check_correlate_options(args: argparse.Namespace) -> None:
    """Options of ``correlate`` that contradict each other or do nothing on this input: two sources of the
    families are refused, ``--revision-policy`` on a score table (one row per model, no revisions) warns."""
    import warnings

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.reports.results_reader import is_score_table

    if args.families is not None and args.family_regex is not None:
        raise InputError("--families and --family-regex both say which family each model is in; give one of them.")
    if args.revision_policy is not None and is_score_table(args.results_dir):
        warnings.warn(
            EvalRankWarning(
                f"--revision-policy {args.revision_policy} has no effect on a score table "
                f"({args.results_dir}: one row per model, no revisions)."
            ),
            stacklevel=1,
        )


def _cmd_correlate(args: argparse.Namespace) -> int:
    from mteb_evalrank.data.files import check_outputs
    from mteb_evalrank.reports.correlation_study import CorrelateOptions, correlate_report

    check_outputs(
        [
            ("--out", args.out, "file"),
            ("--csv", args.csv, "file"),
            ("--plot", args.plot, "figure"),
            ("--rank-plot", args.rank_plot, "figure"),
        ]
    )  # all of them, before any result is read
    _check_correlate_options(args)

    options = CorrelateOptions(
        out=args.out,
        csv=args.csv,
        plot=args.plot,
        rank_plot=args.rank_plot,
        rank_by=args.rank_by,
        compare=[tuple(pair) for pair in args.compare or ()],
        compare_all=args.compare_all,
        families=args.families,
        family_regex=args.family_regex,
        revision_policy=args.revision_policy or "newest",
        n_resamples=args.n_resamples,
        seed=args.seed,
        progress=not args.no_progress,
        claim=args.claim,
        target=args.target,
    )
    report = correlate_report(args.results_dir, args.intrinsic, args.downstream, options)
    for note in report.warnings:
        print(f"warning: {note}", file=sys.stderr)
    print(report.markdown)
    for path in report.written:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def add_correlate_parser(subparsers) -> None:
    """Add `correlate`: Spearman rho x 100 with bootstrap intervals between intrinsic and downstream scores."""
    p = subparsers.add_parser(
        "correlate",
        help="Spearman rho x100 (bootstrap 95%% CI, Kendall tau) between intrinsic and downstream scores across models",
        description="Reads any MTEB results folder (this plugin's tasks, MTEB's own tasks, imported SentEval "
        "results). Score names: Task (main score), Task:metric, Task/subset:metric. Prints the EvalRank "
        "Table 3/6 layout: rows intrinsic, columns downstream, best bold, second underlined, n per cell.",
    )
    p.add_argument(
        "results_dir",
        type=input_path_arg,
        metavar="RESULTS",
        help="results folder (holding results/<org>__<model>/<revision>/), or a score table TABLE.csv / "
        ".tsv: a 'model' column, optional 'family', 'lineage' and 'floor' columns, one column per score",
    )
    scores = {"nargs": "+", "action": "extend", "required": True, "metavar": "SCORE"}  # a repeated option adds
    p.add_argument("--intrinsic", **scores, help="e.g. EvalRankSent SentEvalSTSB")
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
    p.add_argument("--downstream", **scores, help="e.g. SentEvalMR SentEvalCR")
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
        default=None,
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
    first, *skipped = summary_lines(data, out)
    print(first)
    for line in skipped:  # files that could not be read: listed in the page, and named here on stderr
        print(f"warning: {line}", file=sys.stderr)
    return 0


def add_report_parser(subparsers) -> None:
    """Add `report`: one self-contained HTML page for a results folder."""
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
        action=UniquePaths,
        default=None,
        metavar="IMAGE",
        help="PNG/SVG figures to embed in the correlation section",
    )
    p.add_argument("--title", type=title_arg, default=None, help="page title")
    p.set_defaults(func=_cmd_report)


def _cmd_prepare_submission(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.submission import prepare_submission, summary_lines

    sub = prepare_submission(args.results_dir, args.out, overwrite=args.overwrite)
    print("\n".join(summary_lines(sub)))
    return 1 if sub.rejected else 0


def add_prepare_submission_parser(subparsers) -> None:
    """Add `prepare-submission`: copy results into the public results repository's layout and check them."""
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


# --- migrate-results -----------------------------------------------------------------------------
def _cmd_migrate_results(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.result_migration import migrate_results

    plans, settings = migrate_results(args.results_dir, dry_run=args.dry_run)
    verb = "would convert" if args.dry_run else "converted"
    for plan in plans:
        print(f"{verb} {plan.path}: {plan.change}" + (f"; {plan.items_change}" if plan.items_change else ""))
    for path in settings:
        print(f"{verb} {path}: subsets of those tasks -> default")
    done = not plans and not settings
    print(
        f"{len(plans)} result file(s) and {len(settings)} run-settings file(s) {verb}"
        + (" (every file is in the current layout)" if done else "")
    )
    return 0


def add_migrate_results_parser(subparsers) -> None:
    """Add `migrate-results`: rewrite pre-0.2 result files to one headline subset per task."""
    p = subparsers.add_parser(
        "migrate-results",
        help="convert result files written before 0.2 to one headline per task (what MTEB shows)",
        description="EvalRankWord, EvalRankSent, SentEvalSTS12-16 and HEROS used to file their parts (source "
        "datasets, sub-datasets, edit types) as MTEB subsets, which MTEB averages with the whole. This rewrites "
        "each such result file (and its items file) with one subset 'default' holding the headline and the parts "
        "nested inside it. Atomic per file and idempotent; nothing already stored is lost.",
    )
    p.add_argument("results_dir", type=input_folder_arg, help="results folder of mteb run / mteb.run")
    p.add_argument("--dry-run", action="store_true", help="list the files that would change; write nothing")
    p.set_defaults(func=_cmd_migrate_results)


# --- compare -------------------------------------------------------------------------------------
def _cmd_compare(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.compare import compare_models, format_lines

    found = compare_models(
        args.results_dir, args.model_a, args.model_b, args.tasks, n_resamples=args.n_resamples, seed=args.seed
    )
    print("\n".join(format_lines(found, args.model_a, args.model_b)))
    return 0


def add_compare_parser(subparsers) -> None:
    """Add `compare`: paired bootstrap of two models on the same items, per task."""
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


# --- ranks ---------------------------------------------------------------------------------------
def _cmd_ranks(args: argparse.Namespace) -> int:
    from mteb_evalrank.reports.ranks import run_ranks

    lines = run_ranks(
        args.results_dir,
        tasks=args.tasks,
        benchmark=args.benchmark,
        csv_path=args.csv,
        figure=args.out,
        n_resamples=args.resamples,
        seed=args.seed,
        alpha=args.alpha,
        aggregation=args.aggregation,
    )
    print("\n".join(lines))
    return 0


def _alpha_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 0.5 (e.g. 0.05)")
    return value


def add_ranks_parser(subparsers) -> None:
    """Add `ranks`: each model's rank with a 95% interval and the groups that cannot be told apart."""
    p = subparsers.add_parser(
        "ranks",
        help="which models can be told apart? ranks with intervals and tie groups (paired bootstrap)",
        description="Reads FOLDER's results (and <Task>.items.npz, per-item values) of every model with all the tasks; "
        "prints each model's rank with a 95%% interval and groups of models that cannot be told apart (all pairs "
        "at once, error rate --alpha). A task without per-item values is resampled by task only. See docs/ranks.md.",
    )
    p.add_argument("results_dir", type=Path, metavar="FOLDER", help="results folder (the --output-folder of a run)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "-t", "--tasks", action=UniqueNamesAdded, nargs="+", help="task names (their scores are aggregated)"
    )
    which.add_argument("-b", "--benchmark", help="an MTEB benchmark (its tasks are resampled too), e.g. EvalRank")
    _add_chart_and_csv_args(p, "figure of the rank intervals", "CSV: model, rank, rank_low, rank_high, group, scores")
    p.add_argument(
        "--resamples", type=_int_between(100, MAX_RESAMPLES), default=1000, help="bootstrap resamples (default 1000)"
    )
    p.add_argument("--seed", type=_int_at_least(0), default=0, help="bootstrap seed (default 0)")
    p.add_argument(
        "--alpha",
        type=_alpha_arg,
        default=0.05,
        help="1 - interval level and the groups' simultaneous error rate (default 0.05)",
    )
    p.add_argument(
        "--aggregation", choices=("mean", "borda"), default="mean", help="over tasks: MTEB's mean or its Borda rank"
    )
    p.set_defaults(func=_cmd_ranks)


# --- leaderboard ---------------------------------------------------------------------------------
def _host_arg(text: str) -> str:
    """``--host``: a host name or address, checked also with ``--prepare-only`` (which serves nothing): no
    whitespace or control character anywhere (``local host`` is no host name)."""
    if not text or any(c.isspace() or ord(c) < 32 for c in text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is no host name or address (empty, or holding whitespace); e.g. --host 127.0.0.1"
        )
    return text


def _cmd_leaderboard(args: argparse.Namespace) -> int:
    from mteb_evalrank.integration.leaderboard_app import launch, prepare_leaderboard_cache

    if args.api:
        from mteb_evalrank.integration.leaderboard_api import serve_api

        if args.prepare_only or args.benchmark is not None:
            raise InputError("--api serves every benchmark of MTEB's API backend: drop --prepare-only / --benchmark")
        serve_api(
            args.results_dir, host=args.host, port=args.port or 8000, on_ready=lambda line: print(line, flush=True)
        )
        return 0
    if args.prepare_only:
        if args.benchmark is not None:  # the page the app opens on; --prepare-only starts no app
            raise InputError(
                "--benchmark chooses the benchmark the app opens on, and --prepare-only starts no app: drop "
                "--benchmark (the cache holds every benchmark of the menu)."
            )
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
        after_build=lambda benchmark: _write_leaderboard_ranks(args.results_dir, benchmark),
    )
    return 0


def _write_leaderboard_ranks(folder: Path, benchmark: str) -> None:
    """``FOLDER/leaderboard/ranks_<benchmark>.csv`` beside MTEB's app (which has no place for an interval)."""
    from mteb_evalrank.reports.ranks import write_benchmark_ranks

    print(write_benchmark_ranks(folder, benchmark), flush=True)


def add_leaderboard_parser(subparsers) -> None:
    """Add `leaderboard`: MTEB's own leaderboard app (or its API) on a local results folder."""
    p = subparsers.add_parser(
        "leaderboard",
        help="MTEB's own leaderboard app (mteb[leaderboard]) on a local results folder, offline",
        description="Writes FOLDER/leaderboard/benchmark_results.parquet from FOLDER's results only, then serves "
        "MTEB's Gradio leaderboard on it without asking the Hub or GitHub, opening on the EvalRank benchmark "
        "(the plugin's benchmarks are in the menu). Models not in MTEB's registry (local folders, word-vector "
        "files) are listed under their own names (the terminal says which they are). With --api: MTEB's FastAPI backend (mteb.api, the JSON "
        "endpoints /v1/benchmarks, /v1/models, ...) on the folder instead. See docs/leaderboards.md.",
    )
    p.add_argument("results_dir", type=Path, help="results folder (the --output-folder of mteb-evalrank run)")
    p.add_argument("--host", type=_host_arg, default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    p.add_argument("--port", type=port_arg, default=None, help="port, 1-65535 (default 7860; 8000 with --api)")
    p.add_argument(
        "--api",
        action="store_true",
        help="serve MTEB's API backend (uvicorn mteb.api.app:app, mteb[api]) instead of the Gradio app",
    )
    p.add_argument(
        "--benchmark",
        type=name_arg,
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
    if args.plugin_entry_points:
        from mteb_evalrank.reports.upstream_plugins import GROUPS, export_plugin_entry_points

        patch, pr = export_plugin_entry_points(args.mteb_source, args.out)
        print(f"patch: {patch}  (cd {args.mteb_source} && git apply {patch.resolve()})")
        print(f"pull request text: {pr}")
        print(f"entry-point groups MTEB would read: {', '.join(GROUPS)}")
        return 0
    from mteb_evalrank.reports.upstream_export import EXPORTED_TASKS, NOT_EXPORTED, export_upstream

    patch, pr = export_upstream(args.mteb_source, args.out)
    print(f"patch: {patch}  (cd {args.mteb_source} && git apply {patch.resolve()})")
    print(f"pull request text: {pr}")
    print(f"tasks: {', '.join(EXPORTED_TASKS)}; not exported: {', '.join(NOT_EXPORTED)} (reasons in {pr.name})")
    return 0


def add_export_upstream_parser(subparsers) -> None:
    """Add `export-upstream`: the EvalRank tasks as a git diff against an MTEB source tree."""
    p = subparsers.add_parser(
        "export-upstream",
        help="write the EvalRank tasks, evaluator, statistics and benchmark as a git diff against an MTEB source tree",
        description="Writes OUT/mteb-evalrank-upstream.patch (git diff in MTEB's layout: task module, exact-rank "
        "evaluator, descriptive statistics, citations, the EvalRank benchmark and its leaderboard-menu entry) and "
        "OUT/PR_DESCRIPTION.md (datasets, licences, tasks left out and why). With --plugin-entry-points: instead, "
        "OUT/mteb-plugin-entry-points.patch (entry-point plugins for MTEB: mteb/_plugins.py and its tests) and "
        "OUT/PR_DESCRIPTION_PLUGINS.md. The source tree is not modified.",
    )
    p.add_argument("--mteb-source", required=True, help="an MTEB 2.x source tree (git checkout or unpacked sdist)")
    p.add_argument("--out", type=output_folder_arg, required=True, help="folder for the patch and the PR text")
    p.add_argument(
        "--plugin-entry-points",
        action="store_true",
        help="write the patch that lets MTEB find plugins' tasks, benchmarks and models through entry points "
        "(mteb.tasks, mteb.benchmarks, mteb.models) instead of the EvalRank tasks",
    )
    p.set_defaults(func=_cmd_export_upstream)
