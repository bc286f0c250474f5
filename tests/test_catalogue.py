"""The zoo catalogue (models/catalogue.json) is the one place a base or a variant is defined, and engines, not
base names, decide how a base runs."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import mteb  # noqa: F401 - first (see below)
import pytest

# Importing mteb_evalrank.models.zoo before mteb makes models/__init__.py's _MtebFirst finder import mteb in the
# middle of that import, and the module is then executed twice (integration.zoo keeps the first module's
# BASES): import mteb first, as the plugin's own entry points do.
from mteb_evalrank.models import catalogue as cat
from mteb_evalrank.models import zoo
from mteb_evalrank.models.engines import ENGINES, engine_of

ROOT = Path(__file__).resolve().parents[1]


def test_every_base_and_variant_of_the_zoo_comes_from_the_catalogue():
    data = json.loads(cat.CATALOGUE_FILE.read_text(encoding="utf-8"))
    names = [b["name"] for b in data["bases"]]
    assert list(zoo.BASES)[: len(names)] == names  # in file order, nothing registered before it
    assert set(zoo.BASES) == set(names)
    variants = {f"{b['name']}/{v['variant']}" for b in data["bases"] for v in b["variants"]}
    assert set(zoo.VARIANTS) == variants
    assert set(zoo.FIT_CORPORA) == set(data["fit_corpora"])
    for b in data["bases"]:
        base = zoo.BASES[b["name"]]
        assert (base.engine, base.family_name, base.lineage, base.selection, base.dim) == (
            b["engine"], b["family"], b["lineage"], b["selection"], b["dim"])  # fmt: skip


def test_every_base_names_a_registered_engine_and_one_lineage_per_family():
    lineage_of_family: dict[str, str] = {}
    for name, base in zoo.BASES.items():
        assert engine_of(base) is ENGINES[base.engine], name
        assert lineage_of_family.setdefault(base.family_name, base.lineage) == base.lineage, name
        status = engine_of(base).status(base)
        assert status == "installed" or status.split(":")[0] in ("not installed", "not built", "missing folder"), (name, status)


def test_lineage_reasons_cover_every_multi_family_lineage():
    from mteb_evalrank.models.lineage import UNLISTED_REASON, lineage_of

    families: dict[str, set[str]] = {}
    for base in zoo.BASES.values():
        families.setdefault(base.lineage, set()).add(base.family_name)
    reasons = cat.lineage_reasons()
    for lineage, fams in families.items():
        if len(fams) > 1:
            assert lineage in reasons, lineage
        for family in fams:
            assert lineage_of(family) == (lineage, reasons.get(lineage, UNLISTED_REASON))


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


@pytest.mark.parametrize("path", sorted((ROOT / "mteb_evalrank" / "models" / "engines").glob("*.py"))
                         + [ROOT / "mteb_evalrank" / "integration" / "zoo.py",
                            ROOT / "mteb_evalrank" / "integration" / "population.py"], ids=lambda p: p.name)  # fmt: skip
def test_engines_and_the_zoo_wiring_never_name_a_base(path):
    named = _string_constants(path) & set(zoo.BASES)
    assert not named, f"{path.name} names zoo bases {sorted(named)}: put what differs into the catalogue entry"


def test_committed_results_are_filed_under_the_revisions_the_catalogue_gives():
    """Results folders are keyed by revision: every committed study result of an installed variant must still be
    found under the revision the catalogue and its engine give today."""
    from mteb_evalrank.integration.zoo import resolve_zoo_spec, variant_revision, variant_status

    root = ROOT / "docs" / "study" / "results"
    if not root.is_dir():
        pytest.skip("no committed study results")
    checked = 0
    for folder in sorted(root.glob("zoo__*")):
        variant = resolve_zoo_spec(folder.name.replace("zoo__", "zoo/", 1))
        if variant_status(variant) != "installed":
            continue  # a package-version revision needs the package installed
        assert (folder / variant_revision(variant)).is_dir(), (folder.name, [p.name for p in folder.iterdir()])
        checked += 1
    if not checked:
        pytest.skip("no variant with committed results is installed here")
