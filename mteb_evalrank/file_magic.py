"""What a file's first bytes say it is (standard library only, no imports): the magic numbers of compressed
files, which a user may have given a text suffix; of the images a page may embed (PNG, JPEG, SVG); and text
that is not UTF-8 (a UTF-16 or UTF-32 byte-order mark) or is an HTML page.  Used by the readers of text files in
:mod:`mteb_evalrank.data.files` and :mod:`mteb_evalrank.models.word_vector_files`, and by the report's figure and
correlation-CSV readers (:mod:`mteb_evalrank.reports.leaderboard`)."""

#: magic bytes of compressed files
COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"PK\x03\x04", "zip"))
#: magic bytes of the raster images a page embeds (SVG is text: :func:`image_kind`)
IMAGES = ((b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpeg"))
#: byte-order marks of text that is not UTF-8 (UTF-32 first: its little-endian mark starts with UTF-16's)
WIDE_TEXT = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def compressed_kind(head: bytes) -> str | None:
    """``"gzip"``, ``"bzip2"``, ``"xz"`` or ``"zip"`` when ``head`` (a file's first bytes) starts with that magic."""
    return next((kind for magic, kind in COMPRESSED if head.startswith(magic)), None)


def wide_text_kind(head: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` when ``head`` starts with that byte-order mark, or, without a mark, when an
    ASCII-looking start has three NUL bytes in every four (UTF-32) or one in every two (UTF-16)."""
    kind = next((kind for magic, kind in WIDE_TEXT if head.startswith(magic)), None)
    if kind is not None or len(head) < 4:
        return kind
    head = head[:64]
    if any(all(set(head[i::4]) == {0} for i in zeros) for zeros in ((1, 2, 3), (0, 1, 2))):
        return "UTF-32"
    if set(head[1::2]) == {0} or set(head[0::2]) == {0}:
        return "UTF-16"
    return None


def text_problem(data: bytes) -> tuple[str, int | None] | None:
    """Why the whole of ``data`` is no UTF-8 text to decode, as ``(predicate, line)`` ("is UTF-16 text, ...",
    "holds a NUL byte ..."), or ``None``: UTF-16 or UTF-32
    text, with or without a byte-order mark (its ASCII letters decode as UTF-8 with NUL bytes between them), or
    a NUL byte anywhere (its line and column).  The one check of every reader of UTF-8 text files
    (:func:`mteb_evalrank.data.files.read_text`, the vocabulary reader of word-vector files)."""
    kind = wide_text_kind(data[:64])
    if kind is not None:
        return f"is {kind} text, not UTF-8; convert it (e.g. iconv -f {kind} -t UTF-8)", None
    at = data.find(b"\x00")
    if at < 0:
        return None
    line = data.count(b"\n", 0, at) + 1
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    return f"holds a NUL byte at column {column}; this is not a text file", line


def is_html(head: bytes) -> bool:
    """Whether ``head`` (after a UTF-8 byte-order mark and white space) starts an HTML page."""
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip()[:64].lower()
    return start.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<meta", b"<title"))


def image_kind(head: bytes) -> str | None:
    """``"png"``, ``"jpeg"`` or ``"svg"`` when ``head`` (a file's first bytes, 4 KiB are enough) is that image."""
    kind = next((kind for magic, kind in IMAGES if head.startswith(magic)), None)
    if kind is not None:
        return kind
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text.startswith(b"<") and b"<svg" in text[:4096]:
        return "svg"
    return None


def describe(head: bytes) -> str:
    """A few words for what ``head`` holds ("it is ..."), for an error that says what a file is instead of what
    was wanted: ``empty (0 bytes)``, ``a PNG image``, ``gzip data``, ``UTF-16 text``, ``an HTML page``, ``text``."""
    if not head:
        return "empty (0 bytes)"
    kind = image_kind(head)
    if kind is not None:
        return f"{'an' if kind == 'svg' else 'a'} {kind.upper()} image"
    kind = compressed_kind(head)
    if kind is not None:
        return f"{kind} data"
    kind = wide_text_kind(head)
    if kind is not None:
        return f"{kind} text"
    if is_html(head):
        return "an HTML page"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # a character cut by the end of the head is no evidence
            return "binary data"
    return "text"
