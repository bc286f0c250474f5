"""The name the published ``sts-senteval`` card gives the restore function (``...sts_senteval.str_licence.
restore_str_text``); the rule itself is :data:`mteb_evalrank.hub_datasets.str_licence.STS_SENTEVAL`.

Kept so that the card stays true without changing the built dataset's bytes.
"""

from mteb_evalrank.hub_datasets.sts_senteval import restore_str_text

__all__ = ["restore_str_text"]
