"""HEROS (Chiang et al., 2023): ``heros.tsv`` reader (column mapping), Hub-layout builder and card.

Registry interface: ``build(source, out_dir) -> dict[str, int]`` (``source``: ``heros.tsv`` or a
folder holding it) and ``validate(folder) -> list[str]``.
"""

from mteb_evalrank.hub_datasets.heros.build import (
    BUILD_COMMAND,
    CONFIG,
    HEROS_CITATION,
    NAME,
    SOURCE_REPO,
    SOURCE_REVISION,
    build,
    table_from_arrow,
    validate,
)
from mteb_evalrank.hub_datasets.heros.source import (
    COLUMNS,
    EDIT_COLUMNS,
    EXPECTED_HEADER,
    FILENAME,
    TSV_COLUMNS,
    HerosTable,
    read_heros_tsv,
)

__all__ = [
    "BUILD_COMMAND",
    "COLUMNS",
    "CONFIG",
    "EDIT_COLUMNS",
    "EXPECTED_HEADER",
    "FILENAME",
    "HEROS_CITATION",
    "NAME",
    "SOURCE_REPO",
    "SOURCE_REVISION",
    "TSV_COLUMNS",
    "HerosTable",
    "build",
    "read_heros_tsv",
    "table_from_arrow",
    "validate",
]
