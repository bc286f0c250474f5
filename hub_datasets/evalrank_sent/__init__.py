"""EvalRank sentence level (Wang et al., ACL 2022, §4.3): builder, STR licence handling, dataset card.

STR text is blanked for publication and restored at load time by :data:`~..str_licence.EVALRANK_SENT`.
"""

from pathlib import Path

from mteb_evalrank.hub_datasets.evalrank_format import BACKGROUND, PAIRS
from mteb_evalrank.hub_datasets.evalrank_format import validate_dataset as validate
from mteb_evalrank.hub_datasets.evalrank_sent.build import NAME, build
from mteb_evalrank.hub_datasets.str_licence import EVALRANK_SENT, STR_SOURCE_URL

__all__ = ["NAME", "STR_SOURCE_URL", "build", "check_pushable", "prepare_for_push", "restore_str_text", "validate"]

prepare_for_push = EVALRANK_SENT.prepare_for_push
check_pushable = EVALRANK_SENT.check_pushable


def restore_str_text(pairs_df, background_df, str_csv_path: Path):
    """Refill blanked STR text from ``str_csv_path``; return ``(pairs_df, background_df)`` (pandas copies,
    the background without ``text_sha1``).  See :meth:`~..str_licence.StrBlanking.restore`."""
    out = EVALRANK_SENT.restore({BACKGROUND: background_df, PAIRS: pairs_df}, str_csv_path)
    return out[PAIRS], out[BACKGROUND]
