"""EvalRank word level (Wang et al., ACL 2022, §4.3): builder from raw sources and dataset card."""

from mteb_evalrank.hub_datasets.evalrank_format import validate_dataset as validate
from mteb_evalrank.hub_datasets.evalrank_word.build import NAME, build

__all__ = ["NAME", "build", "validate"]
