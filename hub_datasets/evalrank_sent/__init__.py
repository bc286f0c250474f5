"""EvalRank sentence level (Wang et al., ACL 2022, §4.3): builder, STR licence handling, dataset card."""

from mteb_evalrank.hub_datasets.evalrank_format import validate_dataset as validate
from mteb_evalrank.hub_datasets.evalrank_sent.build import NAME, build
from mteb_evalrank.hub_datasets.evalrank_sent.str_licence import (
    STR_SOURCE_URL,
    check_pushable,
    prepare_for_push,
    restore_str_text,
)

__all__ = ["NAME", "STR_SOURCE_URL", "build", "check_pushable", "prepare_for_push", "restore_str_text", "validate"]
