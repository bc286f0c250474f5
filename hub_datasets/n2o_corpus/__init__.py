"""N2O corpus (Lin & Smith, arXiv:1909.10724, §4 and §8): a sentence corpus plus paraphrase needles."""

from mteb_evalrank.hub_datasets.n2o_corpus.build import NAME, build, validate, word_overlap

__all__ = ["NAME", "build", "validate", "word_overlap"]
