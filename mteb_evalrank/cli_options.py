"""The CLI's argument types and the options several sub-commands share (one definition each): bad numbers and
paths are refused by argparse (one usage line, exit code 2).  Argument parsing only; used by
:mod:`mteb_evalrank.cli` and its command modules."""

from __future__ import annotations

import argparse
from pathlib import Path

from mteb_evalrank.errors import EvalRankError

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


# --- argument types: bad numbers and paths are refused by argparse (one usage line, exit code 2) ---
def _int_at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be ≥ {minimum}, got {value}")
        return value

    parse.__name__ = f"int_at_least_{minimum}"
    return parse


def _int_between(minimum: int, maximum: int):
    """An integer in ``[minimum, maximum]`` (the upper bound: what any machine can hold or use)."""
    at_least = _int_at_least(minimum)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be ≤ {maximum:,}, got {value:,}")
        return value

    parse.__name__ = f"int_between_{minimum}_{maximum}"
    return parse


#: Upper bounds of the numeric options: a batch of more than a million texts, more than ten million bootstrap
#: resamples or a seed numpy cannot take are mistakes, refused by the parser.
MAX_BATCH_SIZE = 2**20
MAX_RESAMPLES = 10**7
MAX_SEED = 2**32 - 1

positive_int = _int_at_least(1)
non_negative_int = _int_at_least(0)
batch_size_arg = _int_between(1, MAX_BATCH_SIZE)
seed_arg = _int_between(0, MAX_SEED)
port_arg = _int_between(1, 65535)


def shard_arg(text: str) -> str:
    """``--shard i/n`` with ``1 ≤ i ≤ n``: checked by the parser."""
    from mteb_evalrank.integration.study import parse_shard

    try:
        parse_shard(text)
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None
    return text


def _checked_path(text: str) -> Path:
    """``text`` as a path whose names fit the file system (an ``OSError`` becomes an argument error)."""
    from mteb_evalrank.data.files import check_name_lengths

    try:
        check_name_lengths(Path(text), "path")
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return Path(text)


def output_file_arg(text: str) -> Path:
    """A file to write: an existing folder is refused at once, not after the work is done."""
    path = _checked_path(text)
    try:
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is a folder; give a file name")
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    return path


def output_folder_arg(text: str) -> str:
    """A folder to write into: an existing file is refused at once (the command checks the rest)."""
    path = _checked_path(text)
    try:
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is an existing file, not a folder")
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    return text


def device_arg(text: str) -> str:
    """A torch device that this installation has (``cpu``, ``cuda:0`` with a GPU, ...): checked at once."""
    from mteb_evalrank.models.devices import check_device

    try:
        return check_device(text)
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# --- arguments several commands share (one definition each) -------------------------------------------
def _add_model_args(p, help: str) -> None:
    p.add_argument("-m", "--model", default=DEFAULT_MODEL, help=f"{help} (default: {DEFAULT_MODEL})")
    p.add_argument("--model-revision", default=None, help="model revision (MTEB/Hub models)")
    _add_catalogue_arg(p)


def _add_catalogue_arg(p) -> None:
    p.add_argument(
        "--catalogue",
        metavar="FILE",
        action="append",
        default=None,
        help="a user zoo catalogue (JSON, the shape of catalogue.json) laid over the packaged one; "
        "also MTEB_EVALRANK_CATALOGUE",
    )


def _use_catalogues(args: argparse.Namespace) -> None:
    """``--catalogue FILE`` (repeatable): its bases join the zoo before the command resolves a model."""
    from mteb_evalrank.integration.zoo import use_catalogue

    for path in getattr(args, "catalogue", None) or []:
        use_catalogue(path)


def _add_output_folder_arg(p) -> None:
    p.add_argument(
        "-o",
        "--output-folder",
        type=output_folder_arg,
        default="results",
        help="result cache folder (default: results)",
    )


def _add_encoding_args(p) -> None:
    p.add_argument("--batch-size", type=batch_size_arg, default=None, help="encode batch size")
    p.add_argument("--device", type=device_arg, default=None, help="torch device, e.g. cpu or cuda:0 (checked at once)")


def _add_word_vector_args(p) -> None:
    p.add_argument(
        "--stop-words",
        default=None,
        choices=["sbert"],
        help="word-vector models: drop sentence-transformers' English stop words (includes 'not')",
    )
    p.add_argument(
        "--strip-punctuation",
        action="store_true",
        help="word-vector models: sentence-transformers' punctuation handling",
    )


def _add_chart_and_csv_args(p, chart: str, csv: str) -> None:
    p.add_argument("--out", metavar="FILE.png", type=output_file_arg, default=None, help=chart)
    p.add_argument("--csv", metavar="FILE", type=output_file_arg, default=None, help=csv)


def _add_explain_query_arg(p) -> None:
    p.add_argument(
        "--explain-query",
        type=non_negative_int,
        default=None,
        metavar="I",
        help="§7: popular and outlier neighbours of the I-th query of sample 0",
    )


def _add_resamples_arg(p) -> None:
    p.add_argument(
        "--n-resamples", type=_int_between(100, MAX_RESAMPLES), default=1000, help="bootstrap resamples (default 1000)"
    )
