"""STR's licence in practice: its text is never published, and is restored from the STR file at load time.

STR-2022 (Abdalla et al., EACL 2023; ``sem_text_rel_ranked.csv``) may be used for research but not
redistributed.  Two datasets hold STR text: ``evalrank-sent`` (every sentence that occurs only in STR,
in its ``background`` and ``pairs``) and ``sts-senteval`` (its ``STR`` config).  Each declares where that
text sits as a :class:`StrBlanking` of :class:`BlankedColumn` entries (:data:`EVALRANK_SENT`,
:data:`STS_SENTEVAL`); this module applies the one rule to both:

- :meth:`StrBlanking.prepare_for_push` copies a built dataset (the card and every data file it names)
  for publication and rewrites each config that holds STR text: a column with a hash column gets that
  column (sha1 of the UTF-8 text of *every* row, :func:`~.str_source.hashes_for_blanking`; a row
  already blank keeps its hash, so blanking twice changes nothing) and is set to ``""`` on the rows
  whose id starts with the column's ``prefix``; a column without one is blanked on those rows and
  restored from another column by id.  Ids, scores and row order are kept.  The push routine uploads
  only this copy.
- :meth:`StrBlanking.check_pushable` refuses a folder where STR text is left or a hash column is missing.
- :meth:`StrBlanking.restore` refills the blanks from an STR csv, read exactly as the builders read it
  (:func:`~.evalrank_sent.build.read_str`), checks every refilled text against its hash
  (:func:`~.str_source.verified_texts`) and fails with a message naming the file otherwise.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError
from mteb_evalrank.hub_datasets import evalrank_format as fmt
from mteb_evalrank.hub_datasets import layout
from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL, hashes_for_blanking, text_sha1, verified_texts

__all__ = ["EVALRANK_SENT", "STR_SOURCE_URL", "STS_SENTEVAL", "BlankedColumn", "StrBlanking", "text_sha1"]

#: What an id of the STR csv names: one sentence (``str-<PairID>-<1|2>``), or a pair's first or second text
#: (``str-<PairID>``).
SOURCE_KINDS = ("sentence", "text1", "text2")


@dataclass(frozen=True)
class BlankedColumn:
    """A text column that holds STR text, published blank.

    ``config``/``text``/``id``: where the text and the row's id sit.  ``prefix``: the rows blanked are
    those whose id starts with it (``""``: every row).  ``sha1``: the hash column published next to it,
    restored from the STR csv by id (``source``: what the id names, one of :data:`SOURCE_KINDS`;
    ``items``: how a restore error names the texts); ``sha1=None``: restored from ``fill_from`` =
    ``(config, id column, text column)`` of a hashed column, by id.
    """

    config: str
    text: str
    id: str
    prefix: str = ""
    sha1: str | None = None
    source: str = "sentence"
    items: str = ""
    fill_from: tuple[str, str, str] | None = None

    def blanks(self, item_id: Any) -> bool:
        return str(item_id).startswith(self.prefix)


@dataclass(frozen=True)
class StrBlanking:
    """Where a dataset holds STR text, and the publication rule applied to it (see the module docstring)."""

    columns: tuple[BlankedColumn, ...]

    @property
    def configs(self) -> list[str]:
        return list(dict.fromkeys(c.config for c in self.columns))

    def _of(self, config: str) -> list[BlankedColumn]:
        return [c for c in self.columns if c.config == config]

    # --- publication ------------------------------------------------------------------------------
    def blank_table(self, table, config: str):
        """The publishable table of ``config``: hash columns added (idempotent), STR text blanked."""
        import pyarrow as pa

        columns = {name: table[name].to_pylist() for name in table.column_names}
        for col in self._of(config):
            ids = columns[col.id]
            if col.sha1:
                what = f"{config} row {{id!r}} has no {col.text} and no {col.sha1}."
                columns[col.sha1] = hashes_for_blanking(ids, columns[col.text], columns.get(col.sha1), what)
            columns[col.text] = ["" if col.blanks(i) else t for i, t in zip(ids, columns[col.text])]
        types = {name: table.schema.field(name).type for name in table.column_names}
        return pa.table({name: pa.array(values, types.get(name, pa.string())) for name, values in columns.items()})

    def prepare_for_push(self, folder: Path, staging_dir: Path) -> Path:
        """Copy the dataset in ``folder`` to ``staging_dir`` with all STR text blanked; return ``staging_dir``."""
        folder, staging_dir = Path(folder), Path(staging_dir)
        staging_dir.mkdir(parents=True, exist_ok=True)
        for path in layout.data_files(folder):  # the card and every parquet file it names
            target = staging_dir / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for config in self.configs:
            files = layout.config_files(staging_dir, config)
            if [p.relative_to(staging_dir).as_posix() for p in files] != [layout.config_path(config)]:
                raise InputError(f"{folder}: config {config!r} must be the single file {layout.config_path(config)}.")
            layout.write_config(staging_dir, config, self.blank_table(layout.read_config(staging_dir, config), config))
        problems = self.check_pushable(staging_dir)
        if problems:
            raise InputError(f"{staging_dir}: STR text would be published: " + "; ".join(problems))
        return staging_dir

    def check_pushable(self, folder: Path) -> list[str]:
        """Problems that forbid publishing ``folder``: STR text left, or a hash column missing."""
        problems = []
        for config in self.configs:
            try:
                table = layout.read_config(Path(folder), config)
            except Exception as exc:
                problems.append(f"cannot read config {config!r} ({type(exc).__name__}: {exc})")
                continue
            for col in self._of(config):
                if col.sha1 and col.sha1 not in table.column_names:
                    problems.append(f"{config} has no {col.sha1} column (run prepare_for_push first)")
                if col.text in table.column_names:
                    pairs = zip(table[col.id].to_pylist(), table[col.text].to_pylist())
                    leaked = sorted({str(i) for i, t in pairs if col.blanks(i) and t})
                    if leaked:
                        problems.append(f"{len(leaked)} STR {col.text} texts are not blanked, e.g. ids {leaked[:3]}")
        return problems

    # --- load time ---------------------------------------------------------------------------------
    def restore(self, tables: Mapping[str, Any], str_csv_path: Path) -> dict[str, Any]:
        """Refill blanked STR text of ``tables`` (config -> ``pyarrow.Table`` or pandas DataFrame) from
        ``str_csv_path``; return pandas copies without the hash columns.

        Rows whose hashed text is blank are refilled from the csv and checked against their hashes
        (:class:`~mteb_evalrank.errors.SourceFormatError` naming the file on a missing id or a
        mismatch); then columns without a hash are refilled by id.  Tables without blanks come back
        unchanged (minus hash columns).
        """
        dfs = {c: (t.to_pandas() if hasattr(t, "to_pandas") else t).copy() for c, t in tables.items()}
        source: dict[str, dict[str, str]] | None = None
        for config in dfs:
            hashed = [c for c in self._of(config) if c.sha1]
            if not hashed:
                continue
            df = dfs[config]
            blank = df[hashed[0].text].fillna("") == ""
            for col in hashed[1:]:
                blank |= df[col.text].fillna("") == ""
            if blank.any():
                missing = [c.sha1 for c in hashed if c.sha1 not in df.columns]
                if missing:
                    raise InputError(
                        f"{config}: {int(blank.sum())} rows have blank text but no {missing} to verify them."
                    )
                source = source if source is not None else _str_texts(Path(str_csv_path))
                wanted = df.loc[blank, hashed[0].id].tolist()
                for col in hashed:
                    expected = df.loc[blank, col.sha1].tolist()
                    items = col.items or f"STR {col.text} texts"
                    df.loc[blank, col.text] = verified_texts(wanted, source[col.source], expected, str_csv_path, items)
            dfs[config] = df.drop(columns=[c.sha1 for c in hashed], errors="ignore").reset_index(drop=True)
        for col in self.columns:
            if col.sha1 or col.config not in dfs or col.fill_from is None:
                continue
            donor, donor_id, donor_text = col.fill_from
            text_of = dict(zip(dfs[donor][donor_id], dfs[donor][donor_text]))
            df = dfs[col.config]
            empty = df[col.text].isna() | (df[col.text] == "")
            unknown = sorted(set(df.loc[empty, col.id]) - set(text_of))
            if unknown:
                raise InputError(
                    f"{col.config}: {len(unknown)} blank {col.text} texts have ids not in the {donor}, "
                    f"e.g. {unknown[:3]}."
                )
            df.loc[empty, col.text] = df.loc[empty, col.id].map(text_of)
        return dfs


def _str_texts(path: Path) -> dict[str, dict[str, str]]:
    """The STR csv's texts by id, for each of :data:`SOURCE_KINDS`."""
    from mteb_evalrank.hub_datasets.evalrank_sent.build import read_str

    out: dict[str, dict[str, str]] = {kind: {} for kind in SOURCE_KINDS}
    for p in read_str(path):
        out["sentence"][p.id1], out["sentence"][p.id2] = p.s1, p.s2
        pair_id = p.id1.removesuffix("-1")
        out["text1"][pair_id], out["text2"][pair_id] = p.s1, p.s2
    return out


#: ``evalrank-sent``: the background's ``text`` of every ``str-`` id (a sentence that does not occur in
#: STS-B), hashed in ``text_sha1`` on all rows; the pairs' ``query``/``positive`` of ``str-`` ids, refilled
#: from the background by id.
EVALRANK_SENT = StrBlanking(
    (
        BlankedColumn(fmt.BACKGROUND, "text", "id", prefix="str-", sha1=fmt.TEXT_SHA1, items="STR sentences"),
        BlankedColumn(fmt.PAIRS, "query", "query_id", prefix="str-", fill_from=(fmt.BACKGROUND, "id", "text")),
        BlankedColumn(fmt.PAIRS, "positive", "positive_id", prefix="str-", fill_from=(fmt.BACKGROUND, "id", "text")),
    )
)

#: ``sts-senteval``: ``text1``/``text2`` of every row of the ``STR`` config, hashed in ``text1_sha1``/``text2_sha1``.
STS_SENTEVAL = StrBlanking(
    (
        BlankedColumn("STR", "text1", "id", sha1="text1_sha1", source="text1"),
        BlankedColumn("STR", "text2", "id", sha1="text2_sha1", source="text2"),
    )
)
