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
#: ``build-word-models --words``: the copy check samples from wordfreq's 20,000 most frequent words.
MAX_COPY_CHECK_WORDS = 20_000

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


def _check_path_text(text: str) -> None:
    """An empty path (``Path("")`` is the current folder) and a name that starts or ends with whitespace or holds
    a control character (a pasted newline, a stray space in quotes) are mistakes, not folder names."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is an empty path; give a file or folder name")
    for part in text.split("/"):
        bad = next((c for c in part if ord(c) < 32 or ord(c) == 127), None)
        if bad is not None:
            raise argparse.ArgumentTypeError(f"{text!r}: the name {part!r} holds the control character {bad!r}")
        if part != part.strip():
            raise argparse.ArgumentTypeError(
                f"{text!r}: the name {part!r} starts or ends with whitespace; give the name without it"
            )


def _checked_path(text: str) -> Path:
    """``text`` as a path whose names fit the file system (an ``OSError`` becomes an argument error); not empty,
    no name with whitespace at either end or a control character (:func:`_check_path_text`)."""
    from mteb_evalrank.data.files import check_name_lengths

    _check_path_text(text)
    try:
        check_name_lengths(Path(text), "path")
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return Path(text)


def input_folder_arg(text: str) -> Path:
    """A folder the command reads (sources, a built dataset, wheels): it must exist and be a folder; a file, a
    FIFO, a device, a symlink loop or a broken symlink is named at once, before anything is read."""
    from mteb_evalrank.file_kinds import special_file_kind

    path = _checked_path(text)
    kind = special_file_kind(text)
    if kind == "does not exist":
        raise argparse.ArgumentTypeError(f"{text}: no such folder")
    if kind is None:
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    if kind != "a folder":
        raise argparse.ArgumentTypeError(f"{text} is {kind}, not a folder")
    return path


def input_file_arg(text: str) -> str:
    """A file the command reads: not an empty path, and not named as a folder (``corpus.txt/``: ``pathlib`` would
    drop the ``/`` and read the file).  The command checks the rest (:func:`~mteb_evalrank.data.files.read_bytes`:
    only a regular file is read)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is an empty path; give a file name")
    if text.endswith("/"):
        raise argparse.ArgumentTypeError(f"{text} ends with '/'; give a file name (without the '/')")
    _check_input_name_lengths(text)
    return text


def _check_input_name_lengths(text: str) -> None:
    """A path the command reads whose names are longer than the file system takes: one line (``stat`` would
    raise ``OSError: File name too long``)."""
    from mteb_evalrank.data.files import check_name_lengths

    try:
        check_name_lengths(Path(text), "path")
    except EvalRankError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def input_path_arg(text: str) -> Path:
    """A file or folder the command reads: not an empty path; a name ending with ``/`` must be a folder."""
    from mteb_evalrank.file_kinds import special_file_kind

    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is an empty path; give a file or folder name")
    _check_input_name_lengths(text)
    if text.endswith("/") and special_file_kind(text) not in ("a folder", "does not exist"):
        raise argparse.ArgumentTypeError(f"{text} ends with '/' but is not a folder; give the name without the '/'")
    return Path(text)


def input_existing_arg(text: str) -> Path:
    """A file or folder the command reads (``build-data --sources``: a folder, or one source file): it must exist
    and be a regular file or a folder; a FIFO, a device, a socket, a symlink loop or a broken symlink is named."""
    from mteb_evalrank.file_kinds import special_file_kind

    path = _checked_path(text)
    kind = special_file_kind(text)
    if kind == "does not exist":
        raise argparse.ArgumentTypeError(f"{text}: no such file or folder")
    if kind not in (None, "a folder"):
        raise argparse.ArgumentTypeError(f"{text} is {kind}, not a file or folder")
    return path


def name_arg(text: str) -> str:
    """A name (a model revision, a Hub repository id): not empty, no whitespace at either end, no control
    character."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name; give the name, or leave the option out")
    bad = next((c for c in text if ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        raise argparse.ArgumentTypeError(f"{text!r} holds the control character {bad!r}")
    if text != text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} starts or ends with whitespace; give the name without it")
    return text


def model_spec_arg(text: str) -> str:
    """A model spec (``-m``, ``n2o MODEL``): not empty, no whitespace at either end (``'zoo:glove-50d/mean '`` was
    run as ``zoo:glove-50d/mean``, a path with such a name is refused as well), no control character
    (:func:`name_arg`)."""
    return name_arg(text)


class UniqueNames(argparse.Action):
    """A list of names (``-t``/``--tasks``): a name given twice counts once, with one warning line naming it.
    Names are compared under the one name normaliser (:func:`mteb_evalrank.names.name_key`, NFC, case kept:
    task names are case-sensitive); the first spelling is kept."""

    @staticmethod
    def key(name) -> str:
        from mteb_evalrank.names import name_key

        return name_key(name, casefold=False)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        import warnings

        from mteb_evalrank.errors import EvalRankWarning
        from mteb_evalrank.names import spelled

        first: dict[str, str] = {}  # key -> the first spelling
        again: dict[str, list[str]] = {}  # the first spelling -> the later ones
        for name in values or []:
            key = self.key(name)
            if key in first:
                again.setdefault(first[key], []).append(name)
            else:
                first[key] = name
        if again:
            shown = ", ".join(
                spelled(str(name)) + "".join(f" (also as {spelled(str(o))})" for o in dict.fromkeys(later) if o != name)
                for name, later in again.items()
            )
            where = "/".join(self.option_strings) or self.metavar or self.dest
            warnings.warn(EvalRankWarning(f"{where} names {shown} more than once; each is used once."), stacklevel=2)
        setattr(namespace, self.dest, list(first.values()))


class UniqueNamesAdded(UniqueNames):
    """:class:`UniqueNames` for an option whose repeats add up (``ranks -t A -t B``, as ``action="extend"``)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        super().__call__(parser, namespace, [*(getattr(namespace, self.dest, None) or []), *(values or [])])


class UniquePaths(UniqueNames):
    """A list of files or folders (``sts-by-level FOLDER...``, ``report --figure``): one named twice, also under
    two spellings of one path (``P/a`` and ``P/./a``, ``a`` and ``a/``), counts once, with :class:`UniqueNames`'s
    warning line; the first spelling is kept."""

    @staticmethod
    def key(name) -> str:
        import os

        from mteb_evalrank.names import name_key

        return name_key(os.path.normpath(os.fspath(name)), casefold=False)


def title_arg(text: str) -> str:
    """A title shown on a page (``report --title``): some printable text; an empty or blank title (``--title ""``,
    an unset shell variable) and a control character (a pasted line break) are mistakes, not a title."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty title; give the title text, or leave the option out for the default")
    bad = next((c for c in text if ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        raise argparse.ArgumentTypeError(f"{text!r} holds the control character {bad!r}")
    return text.strip()


def output_file_arg(text: str) -> Path:
    """A file to write: an existing folder is refused at once, not after the work is done, and so is a FIFO, a
    device, a socket or a symlink loop, as given: ``/dev/full`` is refused before a command adds ``.png`` to it
    (the checks of the name with its suffix are :func:`~mteb_evalrank.data.files.output_file`'s)."""
    from mteb_evalrank.file_kinds import output_path_problem

    path = _checked_path(text)
    try:
        if path.is_dir() or text.endswith("/"):
            raise argparse.ArgumentTypeError(f"{text} is a folder; give a file name")
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    kind = output_path_problem(text)
    if kind is not None:
        raise argparse.ArgumentTypeError(
            f"{text} is {kind}; an output is written as a new regular file: give a file name"
        )
    return path


#: the file types a new output folder may not be named like (``--out stats.docx`` would make a folder
#: ``stats.docx`` and write ``stats.docx/<TASK>.json`` into it): documents, tables, figures, archives
FILE_LIKE_SUFFIXES = frozenset(
    {
        *(".txt", ".csv", ".tsv", ".json", ".jsonl", ".md", ".html", ".htm", ".pdf", ".yaml", ".yml", ".xml"),
        *(".png", ".svg", ".jpg", ".jpeg", ".doc", ".docx", ".odt", ".xls", ".xlsx", ".ods", ".parquet"),
        *(".zip", ".gz", ".tar", ".npz", ".npy"),
    }
)


def output_folder_arg(text: str) -> str:
    """A folder to write into: an existing file is refused at once (the command checks the rest), and so is a
    new folder named like a file (:data:`FILE_LIKE_SUFFIXES`): the user meant a file, and would get a folder."""
    from mteb_evalrank.file_kinds import special_file_kind

    _checked_path(text)
    kind = special_file_kind(text)
    if kind is None:
        raise argparse.ArgumentTypeError(f"{text} is an existing file, not a folder")
    if kind is not None and kind.startswith("a file named as a folder"):
        return text  # a file on the way: the command names it ("afile is a file, not a folder")
    if kind not in ("a folder", "does not exist"):
        raise argparse.ArgumentTypeError(f"{text} is {kind}, not a folder")
    suffix = Path(text.rstrip("/")).suffix.lower()
    if kind == "does not exist" and suffix in FILE_LIKE_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"{text} is named like a {suffix} file, but this option names a folder (files are written into "
            f"it); give a folder name, e.g. {Path(text.rstrip('/')).with_suffix('')}"
        )
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
    p.add_argument(
        "-m", "--model", type=model_spec_arg, default=DEFAULT_MODEL, help=f"{help} (default: {DEFAULT_MODEL})"
    )
    p.add_argument("--model-revision", type=name_arg, default=None, help="model revision (MTEB/Hub models)")
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
    import sys

    if "mteb_evalrank.zoo.adapter" in sys.modules:  # an earlier command of this process (cli.main called again)
        sys.modules["mteb_evalrank.zoo.adapter"].forget_catalogues()
    from mteb_evalrank.zoo.adapter import use_catalogue

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
