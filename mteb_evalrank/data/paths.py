"""Where the plugin keeps files it creates: one cache folder, overridable with MTEB_EVALRANK_CACHE."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$MTEB_EVALRANK_CACHE`` or ``$XDG_CACHE_HOME/mteb_evalrank`` (default ``~/.cache/mteb_evalrank``)."""
    from mteb_evalrank.data.files import output_dir

    env = os.environ.get("MTEB_EVALRANK_CACHE")
    if env:
        return output_dir(Path(env).expanduser(), what="plugin cache folder (MTEB_EVALRANK_CACHE)", create=False)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return output_dir(base / "mteb_evalrank", what="plugin cache folder", create=False)
