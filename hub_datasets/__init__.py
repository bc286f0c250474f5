"""Dataset builders (raw sources → Hugging Face Hub layout) and dataset cards, one folder per dataset.

:data:`BUILDERS` maps a dataset name to its package, imported on first access (building the CLI parser
stays cheap).  Each package exposes:

- ``build(sources_dir, out_dir) -> dict`` — build the dataset in Hub layout, return its counts;
- ``validate(folder) -> list[str]`` — content problems of a built folder (optional);
- ``prepare_for_push(folder, staging_dir)`` / ``check_pushable(folder) -> list[str]`` — make and check
  the copy that may be published, for datasets with sources that must not be redistributed (optional).

Publishing goes through one routine for all datasets: :func:`mteb_evalrank.hub_datasets.push.push_folder`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

#: Dataset name -> package (relative to this one).
_PACKAGES = {
    "evalrank-word": "evalrank_word",
    "evalrank-sent": "evalrank_sent",
    "heros": "heros",
    "n2o-corpus": "n2o_corpus",
    "senteval-downstream": "senteval_downstream",
    "sts-senteval": "sts_senteval",
    "word-similarity": "word_similarity",
}
DATASET_NAMES: tuple[str, ...] = tuple(_PACKAGES)


class _Builders(Mapping):
    """Read-only name -> builder package mapping that imports a package on first access."""

    def __getitem__(self, name: str) -> ModuleType:
        if name not in _PACKAGES:
            from mteb_evalrank.errors import InputError

            raise InputError(f"Unknown dataset {name!r}; known: {', '.join(DATASET_NAMES)}.")
        return importlib.import_module(f"{__name__}.{_PACKAGES[name]}")

    def __contains__(self, name: object) -> bool:
        return name in _PACKAGES

    def get(self, name: str, default=None):
        return self[name] if name in _PACKAGES else default

    def __iter__(self) -> Iterator[str]:
        return iter(_PACKAGES)

    def __len__(self) -> int:
        return len(_PACKAGES)


BUILDERS: Mapping[str, ModuleType] = _Builders()
