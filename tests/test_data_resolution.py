"""Data resolution: local folder, raw sources built on demand, Hub (offline → actionable error)."""

from __future__ import annotations

import pytest

from mteb_evalrank.data import resolution as dr
from mteb_evalrank.errors import DataNotFoundError


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for var in (dr.DATA_ENV, dr.SOURCES_ENV, dr.STR_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_offline_without_local_data_names_both_variables_and_the_build_command(monkeypatch):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(DataNotFoundError) as err:
        dr.resolve_dataset("evalrank-sent")
    msg = str(err.value)
    assert dr.DATA_ENV in msg and dr.SOURCES_ENV in msg
    assert "mteb-evalrank build-data evalrank-sent" in msg


def test_sources_are_built_once_into_the_cache(monkeypatch, fixture_sources, tmp_path):
    monkeypatch.setenv(dr.SOURCES_ENV, str(fixture_sources))
    first = dr.resolve_dataset("evalrank-word")
    assert first.origin.startswith("sources:")
    assert (first.folder / "README.md").is_file()
    stamp = (first.folder / "README.md").stat().st_mtime_ns
    second = dr.resolve_dataset("evalrank-word")
    assert second.folder == first.folder
    assert (second.folder / "README.md").stat().st_mtime_ns == stamp  # not rebuilt
    assert first.fingerprint == second.fingerprint and len(first.fingerprint) == 16
    # no half-written temporary folders are left behind
    assert [p.name for p in first.folder.parent.iterdir() if p.name.startswith(".")] == []


def test_failed_build_leaves_nothing_that_looks_complete(monkeypatch, tmp_path):
    src = tmp_path / "src"
    (src / "word_similarity").mkdir(parents=True)  # no files: the builder must fail
    monkeypatch.setenv(dr.SOURCES_ENV, str(src))
    with pytest.raises(Exception):
        dr.resolve_dataset("evalrank-word")
    built = tmp_path / "cache" / "built"
    assert not built.exists() or list(built.iterdir()) == []


def test_data_folder_must_hold_the_built_dataset(monkeypatch, tmp_path):
    monkeypatch.setenv(dr.DATA_ENV, str(tmp_path))
    with pytest.raises(DataNotFoundError, match="not a built dataset"):
        dr.resolve_dataset("evalrank-word")


def test_str_override_must_be_a_file(monkeypatch, tmp_path):
    monkeypatch.setenv(dr.STR_ENV, str(tmp_path / "nope.csv"))
    with pytest.raises(DataNotFoundError, match="MTEB_EVALRANK_STR"):
        dr.str_source_file()


def test_unknown_dataset_name():
    with pytest.raises(DataNotFoundError, match="Unknown dataset"):
        dr.resolve_dataset("nope")
