"""Similarity baselines (STS12-16, STS-B, SICK-R, STR as SentEval / the EvalRank toolkit read them): builder, card.

Registry interface: ``build(sources_dir, out_dir) -> dict[str, int]``, ``validate(folder) -> list[str]``,
and, because STR text may not be redistributed, ``prepare_for_push`` / ``check_pushable``.
"""

from mteb_evalrank.hub_datasets.sts_senteval.build import (
    BUILD_COMMAND,
    CONFIGS,
    NAME,
    STS_SUBSETS,
    build,
    read_config,
    read_str_csv,
    validate,
)
from mteb_evalrank.hub_datasets.sts_senteval.str_licence import (
    SHA1_COLUMNS,
    STR_CONFIG,
    STR_SOURCE_URL,
    check_pushable,
    prepare_for_push,
    restore_str_text,
)

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
