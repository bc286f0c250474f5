"""Similarity baselines (STS12-16, STS-B, SICK-R, STR as SentEval / the EvalRank toolkit read them): builder, card.

Registry interface: ``build(sources_dir, out_dir) -> dict[str, int]``, ``validate(folder) -> list[str]``,
and, because STR text may not be redistributed, ``prepare_for_push`` / ``check_pushable`` /
``restore_str_text`` (the rule of :data:`~..str_licence.STS_SENTEVAL`).
"""

from pathlib import Path

from mteb_evalrank.hub_datasets.str_licence import STR_SOURCE_URL, STS_SENTEVAL
from mteb_evalrank.hub_datasets.sts_senteval.build import (
    BUILD_COMMAND,
    CONFIGS,
    NAME,
    SHA1_COLUMNS,
    STR,
    STS_SUBSETS,
    build,
    read_config,
    read_str_csv,
    validate,
)

STR_CONFIG = STR
prepare_for_push = STS_SENTEVAL.prepare_for_push
check_pushable = STS_SENTEVAL.check_pushable


def restore_str_text(table, str_csv_path: Path):
    """Refill the blanked ``STR`` config (``pyarrow.Table`` or pandas DataFrame) from ``str_csv_path``; return
    a pandas DataFrame without hash columns.  See :meth:`~..str_licence.StrBlanking.restore`."""
    return STS_SENTEVAL.restore({STR: table}, str_csv_path)[STR]


__all__ = [
    "BUILD_COMMAND",
    "CONFIGS",
    "NAME",
    "SHA1_COLUMNS",
    "STR_CONFIG",
    "STR_SOURCE_URL",
    "STS_SUBSETS",
    "build",
    "check_pushable",
    "prepare_for_push",
    "read_config",
    "read_str_csv",
    "restore_str_text",
    "validate",
]
