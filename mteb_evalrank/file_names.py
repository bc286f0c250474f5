"""One codec for file names that are not UTF-8 (standard library only).

Python reads a file name's bytes that are not UTF-8 (``b'caf\\xe9'``) as lone surrogates (``'caf\\udce9'``,
PEP 383); such a ``str`` cannot be encoded as UTF-8, so a page, a CSV, a JSON file or a printed line that names
the file ended in ``UnicodeEncodeError``.  Everything the plugin writes as text (:func:`shown_name`, the error
handler :data:`FILE_NAME_ERRORS` that :func:`mteb_evalrank.data.files.atomic_write_text` and the command line's
stdout and stderr use) shows each such byte as ``\\xe9`` instead: the name stays recognisable, the text stays
UTF-8, and nothing is replaced silently by ``?``.
"""

from __future__ import annotations

import codecs

#: the name of the error handler (:func:`codecs.register_error`) that writes a surrogate-escaped byte as ``\xNN``
FILE_NAME_ERRORS = "mteb_evalrank.file_names"


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return char.encode("ascii", "backslashreplace").decode("ascii")


def _handler(exc: UnicodeError) -> tuple[str, int]:
    if isinstance(exc, UnicodeEncodeError):
        return "".join(_escape(c) for c in exc.object[exc.start : exc.end]), exc.end
    raise exc


codecs.register_error(FILE_NAME_ERRORS, _handler)


def shown_name(text: object) -> str:
    """``str(text)`` with every byte of a non-UTF-8 file name written ``\\xNN`` (and any other character that is
    not UTF-8 text, a lone surrogate, as ``\\udcNN``): safe to write into a UTF-8 page, CSV or JSON file."""
    return str(text).encode("utf-8", FILE_NAME_ERRORS).decode("utf-8")


def has_undecodable_bytes(text: object) -> bool:
    """Whether ``text`` (a path) holds bytes that are not UTF-8 (lone surrogates of ``surrogateescape``)."""
    return any(0xDC80 <= ord(c) <= 0xDCFF for c in str(text))
