"""The 13 word-similarity sets of the EvalRank toolkit (WS-353, RW, MEN, MTurk, SimLex, SimVerb, MC, RG, YP,
VERB): builder from raw sources and dataset card.  Registry interface: ``build(sources_dir, out_dir)``,
``validate(folder)``."""

from mteb_evalrank.hub_datasets.word_similarity.build import (
    BUILD_COMMAND,
    NAME,
    SETS,
    TASK_NAMES,
    VOCABULARY,
    WordSimilaritySet,
    build,
    validate,
)

__all__ = ["BUILD_COMMAND", "NAME", "SETS", "TASK_NAMES", "VOCABULARY", "WordSimilaritySet", "build", "validate"]
