"""Where the plugin keeps files it creates: one cache folder, overridable with MTEB_EVALRANK_CACHE."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$MTEB_EVALRANK_CACHE`` or ``$XDG_CACHE_HOME/mteb_evalrank`` (default ``~/.cache/mteb_evalrank``)."""
    env = os.environ.get("MTEB_EVALRANK_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "mteb_evalrank"
