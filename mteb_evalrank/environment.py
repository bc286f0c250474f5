"""The one reader of environment variables whose value must be of a kind: checked once, before a command runs.

:func:`positive_int` reads a whole-number variable (``MTEB_EVALRANK_ZOO_THREADS``) for every engine alike, and
:func:`check_environment` (called by the CLI before each command, and by the zoo's loader) refuses a value of the
wrong kind in one line naming the variable: ``abc`` or ``-2`` threads, an ``MTEB_CACHE`` that is a file (MTEB
creates that folder when it is imported).  Standard library only.
"""

from __future__ import annotations

import os
import warnings

from mteb_evalrank.errors import EvalRankWarning, InputError

#: threads of the zoo's engines (torch, the BLAS pools, ONNX Runtime); unset: the libraries' defaults
ZOO_THREADS_ENV = "MTEB_EVALRANK_ZOO_THREADS"
#: MTEB's own cache folder (created by ``import mteb``)
MTEB_CACHE_ENV = "MTEB_CACHE"


def positive_int(name: str, *, example: str = "1") -> int | None:
    """The whole number ≥ 1 that environment variable ``name`` holds, ``None`` when it is unset or empty;
    :class:`InputError` naming the variable for anything else (``abc``, ``-2``, ``0``, ``1.5``)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise InputError(f"{name}={value!r}: expected a whole number ≥ 1, e.g. {name}={example}; or unset it.")
    return int(value)


#: threads per core above which MTEB_EVALRANK_ZOO_THREADS is capped (100,000 threads exhaust memory)
THREADS_PER_CORE = 4


def zoo_threads() -> int | None:
    """``MTEB_EVALRANK_ZOO_THREADS`` (``None``: leave the libraries' defaults), capped, with a one-line warning,
    at :data:`THREADS_PER_CORE` threads per core of this machine."""
    threads = positive_int(ZOO_THREADS_ENV)
    limit = THREADS_PER_CORE * (os.cpu_count() or 1)
    if threads is not None and threads > limit:
        warnings.warn(
            f"{ZOO_THREADS_ENV}={threads} is more than {THREADS_PER_CORE} threads per core of this machine's "
            f"{os.cpu_count() or 1}; using {limit}.",
            EvalRankWarning,
            stacklevel=1,  # one place: shown once per run, though read by the CLI and by the engine
        )
        return limit
    return threads


def _folder_variable(name: str) -> None:
    value = os.environ.get(name)
    if not value:
        return
    path = os.path.expanduser(value)
    for part in (path, *_parents(path)):
        if os.path.lexists(part):
            if not os.path.isdir(part):
                what = "is" if part == path else f"lies below {part}, which is"
                raise InputError(f"{name}={value}: {what} a file, not a folder; point it at a folder (or unset it).")
            return


def _parents(path: str) -> list[str]:
    out, current = [], os.path.dirname(os.path.abspath(path))
    while current and current not in out:
        out.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return out


#: the values of an on/off variable (``MTEB_EVALRANK_OFFLINE``), compared in lower case: on, and off
SWITCH_ON = ("1", "true", "yes", "on")
SWITCH_OFF = ("0", "false", "no", "off")
#: on/off variables: anything else (``maybe``) was read as off without a word
SWITCH_VARIABLES = ("MTEB_EVALRANK_OFFLINE",)


def _switch_variable(name: str) -> None:
    value = os.environ.get(name, "").strip()
    if value and value.lower() not in SWITCH_ON + SWITCH_OFF:
        raise InputError(
            f"{name}={value!r}: expected on or off ({', '.join(SWITCH_ON)} / {', '.join(SWITCH_OFF)}); or unset it."
        )


def check_environment() -> None:
    """Refuse, in one line naming the variable, an environment variable of the wrong kind (see the module)."""
    zoo_threads()
    for name in SWITCH_VARIABLES:
        _switch_variable(name)
    _folder_variable(MTEB_CACHE_ENV)
    _folder_variable("MTEB_EVALRANK_CACHE")
