"""Shared pytest helpers (generic; append new ones, do not rewrite)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURE_SOURCES = REPO / "tests" / "fixtures" / "sources"
SHARED_SOURCES_ENV = "MTEB_EVALRANK_SHARED_SOURCES"


def shared_sources_dir() -> Path:
    """The real raw sources: ``$MTEB_EVALRANK_SHARED_SOURCES`` or ``<repo>/../shared/data/sources``."""
    env = os.environ.get(SHARED_SOURCES_ENV)
    return Path(env).expanduser() if env else REPO.parent / "shared" / "data" / "sources"


@pytest.fixture
def shared_sources() -> Path:
    """The real raw sources folder; the test is skipped (with the reason) when it is absent."""
    path = shared_sources_dir()
    if not path.is_dir():
        pytest.skip(f"real source data not found at {path} (set {SHARED_SOURCES_ENV} to use it)")
    return path


@pytest.fixture
def fixture_sources() -> Path:
    """Small synthetic raw sources in the real file formats (tests/fixtures/sources, read-only)."""
    return FIXTURE_SOURCES
