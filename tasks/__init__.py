"""MTEB task classes of the plugin (thin adapters: load data, encode once, call the core)."""

from mteb_evalrank.tasks.evalrank import EvalRankSent, EvalRankWord

ALL_TASKS: list[type] = [EvalRankWord, EvalRankSent]

__all__ = ["ALL_TASKS", "EvalRankSent", "EvalRankWord"]
