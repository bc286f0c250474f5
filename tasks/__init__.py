"""MTEB task classes of the plugin (thin adapters: load data, encode once, call the core)."""

ALL_TASKS: list[type] = []
