"""Layer 4 — results folders to tables, plots and pages.

What belongs here: functions that read MTEB results folders (or take scores directly) and return
tables, write CSV/PNG/HTML files or print a report: the score table of ``mteb-evalrank run``, the HEROS
report, the N2O comparison.  They take plain arguments (paths, numbers, lists), so they can be called
from Python and tested without argv; argument parsing lives in :mod:`mteb_evalrank.cli`.

May import: every layer below (``errors``, metrics, models, data, integration, hub_datasets) and the
task classes (same layer).  Never the CLI.
"""
