"""Terminal output of the CLI: the score table (from :mod:`mteb_evalrank.integration.score_table`, which the one
run path prints) and the report of ``import-senteval``."""

from __future__ import annotations

from mteb_evalrank.integration.score_table import (  # noqa: F401  (re-exported: examples/ and the reports use them)
    HEADLINE,
    format_scores_table,
    standard_error,
    task_scores_rows,
)


def print_import_report(report) -> None:
    """What ``import-senteval`` / ``senteval`` filed: one line per imported task, warnings on stderr."""
    import sys

    for item in report.imported:
        print(f"{item.senteval_name} -> {item.task_name}: main_score {item.main_score:.4f}  {item.path}")
    for name, reason in report.skipped.items():
        print(f"warning: {name}: {reason}", file=sys.stderr)
    for message in report.warnings:
        print(f"warning: {message}", file=sys.stderr)
