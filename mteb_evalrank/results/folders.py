"""Result folder names, made in one place (standard library only).

MTEB files a model's results under ``<output folder>/results/<model folder>/<revision>/``, where the model folder
is :meth:`mteb.models.ModelMeta.model_name_as_path`: the name with ``/`` as ``__`` and spaces as ``_``
(``sentence-transformers/all-MiniLM-L6-v2`` -> ``sentence-transformers__all-MiniLM-L6-v2``).  Every module that
names such a folder calls :func:`model_folder_name` (``tests/test_layers.py`` fails on a hand-made
``replace("/", "__")``); the way back, folder name -> model name, is
:func:`mteb_evalrank.data.result_files.model_name_from_folder`.
"""

from __future__ import annotations

from pathlib import Path

#: the sub-folder of an output folder (``mteb run --output-folder``) that holds the model folders
RESULTS_SUBFOLDER = "results"


def model_folder_name(name: str) -> str:
    """The folder MTEB files the results of the model ``name`` under (``ModelMeta.model_name_as_path``)."""
    return str(name).replace("/", "__").replace(" ", "_")


def model_folder(output_folder: str | Path, name: str) -> Path:
    """``<output_folder>/results/<model folder>``: where MTEB files every revision of ``name``."""
    return Path(output_folder) / RESULTS_SUBFOLDER / model_folder_name(name)


def revision_folder(output_folder: str | Path, name: str, revision: str) -> Path:
    """``<output_folder>/results/<model folder>/<revision>``: where MTEB files one revision's results."""
    return model_folder(output_folder, name) / str(revision)


__all__ = ["RESULTS_SUBFOLDER", "model_folder", "model_folder_name", "revision_folder"]
