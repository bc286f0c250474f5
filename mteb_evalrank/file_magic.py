"""What a file's first bytes say it is (standard library only, no imports): the magic numbers of compressed
files, which a user may have given a text suffix.  Used by the readers of text files in
:mod:`mteb_evalrank.data.files` and :mod:`mteb_evalrank.models.word_vector_files`."""

#: magic bytes of compressed files
COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"PK\x03\x04", "zip"))


def compressed_kind(head: bytes) -> str | None:
    """``"gzip"``, ``"bzip2"``, ``"xz"`` or ``"zip"`` when ``head`` (a file's first bytes) starts with that magic."""
    return next((kind for magic, kind in COMPRESSED if head.startswith(magic)), None)
