"""Dataset builders for SentEval's downstream tasks (``senteval-downstream``) and similarity baselines
(``sts-senteval``), STR's licence handling there, and the real-data counts.

Fixture counts (tests/fixtures/sources, checked by hand; every file is in its real format):

- downstream: MR 3 pos + 3 neg (one latin-1 byte ``caf\\xe9``, a tab and a double space inside a
  sentence); CR ``great phone .``, blank, ``the battery lasts long .``, blank (the file ends with a
  blank line, as the real ``custrev`` files do) + 2 neg = 6 rows, 2 of them empty; SUBJ 2 objective
  (label 1) + 2 subjective; MPQA 2 + 3 (last line without newline) = 5; SST2 4/2/2; SST5 5/2/3; TREC
  4/3 (``sister\\xf0city``); MRPC 3/2 after the header (the files start with a byte-order mark); SICKE
  3/2/3 (test file with CRLF line ends); SciCite 4/2/2.
- similarity: STS12-16 have 3 pairs per sub-dataset; STS15/16 sub-datasets 1, 3 and 5 have gold lines
  ``4.8``, empty, ``0.4`` (2 scored) and 2 and 4 empty, ``3.6``, empty (1 scored): 8 scored, 7 dropped;
  STS12 15, STS13 9, STS14 18; STSB 6/3/3 (the fixture shared with evalrank-sent); SICKR 3/2/3; STR 12.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from mteb_evalrank.errors import InputError, SourceFormatError
from mteb_evalrank.hub_datasets import BUILDERS, DATASET_NAMES, layout, push
from mteb_evalrank.hub_datasets import senteval_downstream as down
from mteb_evalrank.hub_datasets import sts_senteval as sts
from mteb_evalrank.hub_datasets.senteval_format import senteval_text

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sources"
STR_CSV = Path("sts_senteval/STR/sem_text_rel_ranked.csv")


def shared_sources_dir() -> Path:
    """The real raw sources, as in conftest: ``$MTEB_EVALRANK_SHARED_SOURCES`` or ``<repo>/../shared/data/sources``."""
    env = os.environ.get("MTEB_EVALRANK_SHARED_SOURCES")
    return Path(env).expanduser() if env else Path(__file__).resolve().parents[2] / "shared" / "data" / "sources"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("senteval-built")
    reports = {
        "down": down.build(FIXTURES, out / "down"),
        "sts": sts.build(FIXTURES, out / "sts"),
    }
    return {"down": out / "down", "sts": out / "sts", "reports": reports}


@pytest.fixture
def sources(tmp_path) -> Path:
    """A writable copy of the fixture sources (tests corrupt it)."""
    return Path(shutil.copytree(FIXTURES, tmp_path / "sources"))


def _table(folder: Path, config: str):
    return layout.read_config(folder, config).to_pandas()


# --- registry ------------------------------------------------------------------------------------
def test_builders_are_registered():
    assert {"senteval-downstream", "sts-senteval"} <= set(DATASET_NAMES)
    assert BUILDERS["senteval-downstream"] is down and BUILDERS["sts-senteval"] is sts
    assert down.NAME == "senteval-downstream" and sts.NAME == "sts-senteval"
    assert hasattr(sts, "prepare_for_push") and hasattr(sts, "check_pushable")


# --- senteval-downstream on the fixture ----------------------------------------------------------
def test_downstream_counts_on_fixture(built):
    report = built["reports"]["down"]
    expected = {
        "MR_train": 6,
        "CR_train": 6,
        "SUBJ_train": 4,
        "MPQA_train": 5,
        "SST2_train": 4,
        "SST2_dev": 2,
        "SST2_test": 2,
        "SST5_train": 5,
        "SST5_dev": 2,
        "SST5_test": 3,
        "TREC_train": 4,
        "TREC_test": 3,
        "MRPC_train": 3,
        "MRPC_test": 2,
        "SICKE_train": 3,
        "SICKE_dev": 2,
        "SICKE_test": 3,
        "SciCite_train": 4,
        "SciCite_dev": 2,
        "SciCite_test": 2,
        "CR_empty_texts": 2,
        "MR_empty_texts": 0,
        "MR_non_ascii_texts": 1,
        "TREC_non_ascii_texts": 1,
        "rows": 67,
    }
    assert {k: report[k] for k in expected} == expected
    assert layout.validate_folder(built["down"]) == []
    assert down.validate(built["down"]) == []


def test_downstream_columns_and_binary_tasks(built):
    for config in down.CONFIGS:
        table = _table(built["down"], config)
        pairs = config in ("MRPC", "SICKE")
        texts = ["text1", "text2"] if pairs else ["text"]
        assert list(table.columns) == ["id", "split", *texts, "label", "label_name"]
        assert str(table["label"].dtype) == "int64"
    mr = _table(built["down"], "MR")
    assert list(mr["id"]) == [f"rt-polarity.{f}:{i}" for f in ("pos", "neg") for i in (1, 2, 3)]
    assert list(mr["label"]) == [1, 1, 1, 0, 0, 0] and set(mr["split"]) == {"train"}
    assert mr["text"][1] == "the best movie of the year !"  # SentEval's tokens, joined by single spaces
    assert mr["text"][3] == "the café scene is dull ."  # latin-1, as SentEval reads it
    cr = _table(built["down"], "CR")
    assert list(cr["text"]) == [
        "great phone .",
        "",
        "the battery lasts long .",
        "",
        "the screen broke .",
        "terrible support .",
    ]
    assert list(cr["id"][:4]) == ["custrev.pos:1", "custrev.pos:2", "custrev.pos:3", "custrev.pos:4"]
    subj = _table(built["down"], "SUBJ")  # SentEval passes subj.objective as the "positive" file
    assert list(zip(subj["label"], subj["label_name"])) == [(1, "objective")] * 2 + [(0, "subjective")] * 2
    mpqa = _table(built["down"], "MPQA")
    assert list(mpqa["text"]) == ["support", "welcomed warmly", "complained", "terror", "not satisfied"]


def test_downstream_split_tasks(built):
    sst2 = _table(built["down"], "SST2")
    assert list(sst2["split"]) == ["train"] * 4 + ["dev"] * 2 + ["test"] * 2
    assert sst2["text"][0] == "a warm , funny film" and list(sst2["label"][:4]) == [1, 0, 1, 0]
    sst5 = _table(built["down"], "SST5")
    assert sst5["text"][0] == "a masterpiece ." and sst5["label_name"][0] == "very positive"
    assert sst5["text"][8] == "fine i guess ." and sst5["label"][8] == 2
    trec = _table(built["down"], "TREC")
    assert list(trec["split"]) == ["train"] * 4 + ["test"] * 3
    assert trec["text"][0] == "How did serfdom develop in and then leave Russia ?"
    assert trec["text"][2] == "Which city has the oldest relationship as a sisterðcity with Los Angeles ?"
    assert list(trec["label_name"]) == ["DESC", "ENTY", "LOC", "NUM", "NUM", "HUM", "ABBR"]
    assert list(trec["label"]) == [1, 2, 4, 5, 5, 3, 0]
    scicite = _table(built["down"], "SciCite")
    assert list(scicite["text"][:2]) == [
        "however how frataxin interacts iscs remains unclear",
        "we used themethod of smith et al",  # the line break inside the text is dropped, as in the toolkit
    ]
    assert scicite["text"][3] == "prior work see" and list(scicite["label"]) == [0, 1, 2, 0, 1, 2, 0, 2]


def test_downstream_pair_tasks(built):
    mrpc = _table(built["down"], "MRPC")
    ids = [f"msr_paraphrase_{s}.txt:{i}" for s, n in (("train", 4), ("test", 3)) for i in range(2, n + 1)]
    assert list(mrpc["id"]) == ids  # line 1 is the header
    assert mrpc["text1"][0] == 'Amrozi accused his brother , whom he called " the witness " , of lying .'
    assert list(mrpc["label"]) == [1, 0, 1, 1, 0] and mrpc["label_name"][1] == "not_paraphrase"
    assert not any("\ufeff" in t for t in (*mrpc["text1"], *mrpc["text2"], *mrpc["id"]))
    sicke = _table(built["down"], "SICKE")
    assert list(sicke["split"]) == ["train"] * 3 + ["dev"] * 2 + ["test"] * 3
    assert list(sicke["label_name"]) == [
        "neutral",
        "entailment",
        "contradiction",
        "entailment",
        "neutral",
        "neutral",
        "entailment",
        "contradiction",
    ]
    assert list(sicke["label"]) == [1, 2, 0, 2, 1, 1, 2, 0]
    assert sicke["text2"][7] == "A person rides a bike"  # CRLF removed


def test_downstream_text_round_trips_to_senteval_tokens(built):
    for config in down.CONFIGS:
        table = layout.read_config(built["down"], config)
        for column in ("text", "text1", "text2"):
            if column in table.column_names:
                assert all(t == senteval_text(t) for t in table[column].to_pylist())


def test_downstream_card(built):
    metadata, body = layout.read_card(built["down"])
    assert [c["config_name"] for c in metadata["configs"]] == list(down.CONFIGS)
    assert metadata[layout.CARD_DATASET_KEY] == "senteval-downstream" and metadata["license"] == "other"
    assert down.BUILD_COMMAND in body
    assert "| `SST2` | 4 | 2 | 2 | 8 |" in body and "| `MR` | 6 | — | — | 6 |" in body
    for needle in (
        "CC BY-NC-SA 3.0",
        "Microsoft Research Paraphrase Corpus",
        "allenai/scicite",
        "latin-1",
        "sentence.split()",
        "Empty texts in this build: CR: 2",
    ):
        assert needle in body, needle


@pytest.mark.integration
def test_downstream_loads_with_datasets(built):
    datasets = pytest.importorskip("datasets")
    ds = datasets.load_dataset(str(built["down"]), "SICKE", split="test")
    assert ds.num_rows == 8 and ds.column_names == ["id", "split", "text1", "text2", "label", "label_name"]


def test_sources_dir_may_be_the_task_folder(tmp_path):
    rows = down.read_task(FIXTURES / "senteval_downstream", "TREC")
    assert len(rows) == 7
    assert len(sts.read_config(FIXTURES / "sts_senteval", "STS13")) == 9


# --- sts-senteval on the fixture -----------------------------------------------------------------
def test_sts_counts_on_fixture(built):
    report = built["reports"]["sts"]
    expected = {
        "STS12_test": 15,
        "STS13_test": 9,
        "STS14_test": 18,
        "STS15_test": 8,
        "STS16_test": 8,
        "STS15_answers-forums": 2,
        "STS15_answers-students": 1,
        "STS15_unscored_pairs_dropped": 7,
        "STS16_unscored_pairs_dropped": 7,
        "STS12_unscored_pairs_dropped": 0,
        "STSB_train": 6,
        "STSB_dev": 3,
        "STSB_test": 3,
        "SICKR_train": 3,
        "SICKR_dev": 2,
        "SICKR_test": 3,
        "STR_test": 12,
        "rows": 90,
    }
    assert {k: report[k] for k in expected} == expected
    assert layout.validate_folder(built["sts"]) == []
    assert sts.validate(built["sts"]) == []


def test_sts_tables(built):
    for config in sts.CONFIGS:
        table = layout.read_config(built["sts"], config)
        assert table.column_names == ["id", "subset", "split", "text1", "text2", "score"]
        assert str(table.schema.field("score").type) == "double"
    sts12 = _table(built["sts"], "STS12")
    assert list(dict.fromkeys(sts12["subset"])) == list(sts.STS_SUBSETS["STS12"])
    assert list(sts12["id"][:3]) == ["MSRpar:1", "MSRpar:2", "MSRpar:3"]
    assert sts12["text1"][1] == "a woman slices an onion ." and list(sts12["score"][:3]) == [5.0, 3.75, 0.2]
    sts15 = _table(built["sts"], "STS15")  # unscored pairs dropped, line numbers kept
    assert list(sts15["id"][:3]) == ["answers-forums:1", "answers-forums:3", "answers-students:2"]
    assert list(sts15["score"][:3]) == [4.8, 0.4, 3.6]
    stsb = _table(built["sts"], "STSB")
    assert list(stsb["split"]) == ["train"] * 6 + ["dev"] * 3 + ["test"] * 3 and set(stsb["subset"]) == {"STSB"}
    assert stsb["id"][6] == "sts-dev.csv:1" and stsb["text2"][6] == "a cat sits on the mat ."  # 9 fields: extra ignored
    sickr = _table(built["sts"], "SICKR")
    assert list(sickr["score"]) == [4.5, 4.2, 3.6, 4.9, 1.2, 3.3, 4.7, 3.8]
    assert list(sickr["split"]) == ["train"] * 3 + ["dev"] * 2 + ["test"] * 3
    str_table = _table(built["sts"], "STR")
    assert str_table["id"][0] == "str-Formality_pp_1" and set(str_table["subset"]) == {"STR"}
    assert str_table["text1"][0] == "It is raining today." and str_table["text2"][0] == "It's raining today, isn't it?"


def test_sts_card(built):
    metadata, body = layout.read_card(built["sts"])
    assert [c["config_name"] for c in metadata["configs"]] == list(sts.CONFIGS)
    assert metadata[layout.CARD_DATASET_KEY] == "sts-senteval"
    assert sts.BUILD_COMMAND in body and "do not redistribute" in body and sts.STR_SOURCE_URL in body
    assert "| `STS15` | `answers-forums` | 2 | 1 |" in body and "| `STSB` | 6 | 3 | 3 | 12 |" in body


# --- STR licence ---------------------------------------------------------------------------------
def test_str_text_is_blanked_for_push_and_restored(built, tmp_path):
    assert sts.check_pushable(built["sts"])  # the local build holds STR text: not publishable
    stage = sts.prepare_for_push(built["sts"], tmp_path / "stage")
    assert sts.check_pushable(stage) == [] and sts.validate(stage) == [] and layout.validate_folder(stage) == []
    published = _table(stage, "STR")
    assert (published["text1"] == "").all() and (published["text2"] == "").all()
    assert published["text1_sha1"].str.len().eq(40).all() and published["text2_sha1"].str.len().eq(40).all()
    original = _table(built["sts"], "STR")
    assert list(published["id"]) == list(original["id"]) and list(published["score"]) == list(original["score"])
    for config in sts.CONFIGS[:-1]:  # everything else is published as built
        assert layout.read_config(stage, config).equals(layout.read_config(built["sts"], config))
    restored = sts.restore_str_text(layout.read_config(stage, "STR"), FIXTURES / STR_CSV)
    assert restored.equals(original)
    # idempotent: staging a staged copy keeps the hashes
    again = sts.prepare_for_push(stage, tmp_path / "stage2")
    assert layout.read_config(again, "STR").equals(layout.read_config(stage, "STR"))


def test_str_restore_rejects_another_release(built, tmp_path, sources):
    stage = sts.prepare_for_push(built["sts"], tmp_path / "stage")
    csv_path = sources / STR_CSV
    csv_path.write_text(csv_path.read_text().replace("It is raining today.", "It was raining today."))
    with pytest.raises(SourceFormatError, match="sha1 mismatch"):
        sts.restore_str_text(layout.read_config(stage, "STR"), csv_path)
    csv_path.write_text(csv_path.read_text().replace("Formality_pp_1", "Formality_pp_99"))
    with pytest.raises(SourceFormatError, match="not in this file"):
        sts.restore_str_text(layout.read_config(stage, "STR"), csv_path)


def test_push_dry_run_uploads_only_blanked_str(built, tmp_path):
    report = push.push_folder(built["sts"], "org/sts-senteval", dry_run=True, staging_dir=tmp_path / "stage")
    assert sorted(p for p, _ in report.files) == sorted(["README.md", *(f"{c}/test.parquet" for c in sts.CONFIGS)])
    assert (_table(tmp_path / "stage", "STR")["text1"] == "").all()
    report = push.push_folder(built["down"], "org/senteval-downstream", dry_run=True, staging_dir=tmp_path / "d")
    assert len(report.files) == 1 + len(down.CONFIGS)


def test_str_blank_text_without_hashes_is_invalid(built, tmp_path):
    import pyarrow as pa

    folder = Path(shutil.copytree(built["sts"], tmp_path / "copy"))
    table = layout.read_config(folder, "STR")
    blank = table.set_column(table.column_names.index("text1"), "text1", pa.array([""] * table.num_rows))
    layout.write_config(folder, "STR", blank)
    assert any("empty texts" in p for p in sts.validate(folder))
    with pytest.raises(InputError, match="no text1 and no text1_sha1"):
        sts.prepare_for_push(folder, tmp_path / "stage")


# --- malformed and missing sources ---------------------------------------------------------------
def _replace_line(path: Path, line_no: int, new_line: str, encoding: str = "utf-8") -> None:
    lines = path.read_bytes().split(b"\n")
    lines[line_no - 1] = new_line.encode(encoding)
    path.write_bytes(b"\n".join(lines))


D, S = "senteval_downstream", "sts_senteval"


@pytest.mark.parametrize(
    "builder, relpath, line_no, new_line, message",
    [
        ("senteval-downstream", f"{D}/SST/binary/sentiment-dev", 2, "no tab here 0", "expected 'sentence<TAB>label'"),
        ("senteval-downstream", f"{D}/SST/binary/sentiment-train", 3, "fine \t7", "label 7 is not in 0..1"),
        ("senteval-downstream", f"{D}/SST/fine/sentiment-test", 2, "x a movie .", "label 'x' is not an integer"),
        ("senteval-downstream", f"{D}/TREC/TREC_10.label", 2, "no colon here ?", "found no ':'"),
        ("senteval-downstream", f"{D}/TREC/train_5500.label", 4, "FOO:bar What ?", "unknown coarse label 'FOO'"),
        ("senteval-downstream", f"{D}/TREC/TREC_10.label", 1, "NUM:dist", "found no question"),
        ("senteval-downstream", f"{D}/MRPC/msr_paraphrase_train.txt", 3, "0\t1\t2", "at least 5 tab-separated fields"),
        ("senteval-downstream", f"{D}/MRPC/msr_paraphrase_test.txt", 2, "2\t1\t2\ta .\tb .", "Quality 2 is not 0 or 1"),
        ("senteval-downstream", f"{D}/MRPC/msr_paraphrase_test.txt", 1, "1\t1\t2\ta .\tb .", "the header line"),
        ("senteval-downstream", f"{D}/SICK/SICK_trial.txt", 3, "5\ta\tb\t1.0\tMAYBE", "entailment_judgment 'MAYBE'"),
        ("senteval-downstream", f"{D}/SCICITE/dev.txt", 2, '{"text": "x", "label"', "not a JSON object"),
        ("senteval-downstream", f"{D}/SCICITE/test.txt", 1, '{"text": "x", "label": "other"}', "label 'other'"),
        ("sts-senteval", f"{S}/STS/STS14-en-test/STS.input.images.txt", 2, "only one sentence", "two tab-separated"),
        ("sts-senteval", f"{S}/STS/STS12-en-test/STS.gs.MSRvid.txt", 3, "high", "score 'high' is not a number"),
        ("sts-senteval", f"{S}/STS/STSBenchmark/sts-test.csv", 2, "g\tf\t2015\t0002\t2.0", "expected 7 tab-separated"),
        ("sts-senteval", f"{S}/SICK/SICK_train.txt", 2, "1\ta\tb\tfive\tNEUTRAL", "score 'five' is not a number"),
    ],
)
def test_malformed_line_names_file_and_line(sources, tmp_path, builder, relpath, line_no, new_line, message):
    path = sources / relpath
    _replace_line(path, line_no, new_line)
    with pytest.raises(SourceFormatError, match=re.escape(message)) as info:
        BUILDERS[builder].build(sources, tmp_path / "out")
    assert info.value.path == str(path) and info.value.line == line_no
    assert f"{path}, line {line_no}:" in str(info.value)
    assert not (tmp_path / "out").exists()  # nothing is written before every source is read


def test_non_utf8_byte_names_file_and_line(sources, tmp_path):
    path = sources / D / "SST/fine/sentiment-train"
    _replace_line(path, 3, "2 caf\xe9 .", encoding="latin-1")
    with pytest.raises(SourceFormatError, match="not utf-8 text") as info:
        down.build(sources, tmp_path / "out")
    assert info.value.path == str(path) and info.value.line == 3


def test_sts_gold_file_of_another_length(sources, tmp_path):
    path = sources / S / "STS/STS13-en-test/STS.gs.OnWN.txt"
    path.write_text("1.0\n2.0\n")
    with pytest.raises(SourceFormatError, match=r"2 score lines for the 3 sentence pairs of STS.input.OnWN.txt"):
        sts.build(sources, tmp_path / "out")


@pytest.mark.parametrize(
    "builder, relpath",
    [
        ("senteval-downstream", f"{D}/CR/custrev.neg"),
        ("senteval-downstream", f"{D}/SCICITE/test.txt"),
        ("sts-senteval", f"{S}/STS/STS16-en-test/STS.gs.plagiarism.txt"),
        ("sts-senteval", f"{S}/SICK/SICK_trial.txt"),
    ],
)
def test_missing_source_file_is_named(sources, tmp_path, builder, relpath):
    (sources / relpath).unlink()
    with pytest.raises(SourceFormatError, match="missing") as info:
        BUILDERS[builder].build(sources, tmp_path / "out")
    assert info.value.path == str(sources / relpath)


def test_builds_are_deterministic(tmp_path):
    for name in ("senteval-downstream", "sts-senteval"):
        BUILDERS[name].build(FIXTURES, tmp_path / name / "a")
        BUILDERS[name].build(FIXTURES, tmp_path / name / "b")
        for path in sorted((tmp_path / name / "a").rglob("*")):
            if path.is_file():
                twin = tmp_path / name / "b" / path.relative_to(tmp_path / name / "a")
                assert path.read_bytes() == twin.read_bytes(), path


# --- real data (../shared/data/sources) ----------------------------------------------------------
@pytest.fixture(scope="module")
def real(tmp_path_factory) -> dict:
    sources = shared_sources_dir()
    if not (sources / D).is_dir() or not (sources / S).is_dir():
        pytest.skip(f"real SentEval sources not found under {sources}")
    out = tmp_path_factory.mktemp("senteval-real")
    return {
        "down": (out / "down", down.build(sources, out / "down")),
        "sts": (out / "sts", sts.build(sources, out / "sts")),
    }


def test_real_downstream_counts_match_senteval(real):
    folder, report = real["down"]
    expected = {  # SentEval's sizes; SciCite as shipped with the EvalRank toolkit
        "MR_train": 10662,
        "CR_train": 3775,
        "SUBJ_train": 10000,
        "MPQA_train": 10606,
        "SST2_train": 67349,
        "SST2_dev": 872,
        "SST2_test": 1821,
        "SST5_train": 8544,
        "SST5_dev": 1101,
        "SST5_test": 2210,
        "TREC_train": 5452,
        "TREC_test": 500,
        "MRPC_train": 4076,
        "MRPC_test": 1725,
        "SICKE_train": 4500,
        "SICKE_dev": 500,
        "SICKE_test": 4927,
        "SciCite_train": 7320,
        "SciCite_dev": 916,
        "SciCite_test": 1861,
        "CR_empty_texts": 4,
        "MPQA_empty_texts": 3,
        "TREC_non_ascii_texts": 1,
        "rows": 148717,
    }
    assert {k: report[k] for k in expected} == expected
    assert down.validate(folder) == [] and layout.validate_folder(folder) == []
    mrpc = _table(folder, "MRPC")
    assert (mrpc[mrpc["split"] == "train"]["label"] == 1).sum() == 2753


def test_real_sts_counts_match_senteval(real):
    folder, report = real["sts"]
    expected = {
        "STS12_test": 3108,
        "STS13_test": 1500,
        "STS14_test": 3750,
        "STS15_test": 3000,
        "STS16_test": 1186,
        "STS15_unscored_pairs_dropped": 5500,
        "STS16_unscored_pairs_dropped": 7997,
        "STS12_unscored_pairs_dropped": 0,
        "STS16_answer-answer": 254,
        "STS12_SMTeuroparl": 459,
        "STS13_FNWN": 189,
        "STSB_train": 5749,
        "STSB_dev": 1500,
        "STSB_test": 1379,
        "SICKR_train": 4500,
        "SICKR_dev": 500,
        "SICKR_test": 4927,
        "STR_test": 5500,
    }
    assert {k: report[k] for k in expected} == expected
    assert sts.validate(folder) == [] and layout.validate_folder(folder) == []


def test_real_str_is_never_published(real, tmp_path):
    folder, _ = real["sts"]
    stage = sts.prepare_for_push(folder, tmp_path / "stage")
    assert sts.check_pushable(stage) == []
    published = layout.read_config(stage, "STR")
    assert set(published["text1"].to_pylist()) == {""} == set(published["text2"].to_pylist())
    restored = sts.restore_str_text(published, shared_sources_dir() / STR_CSV)
    assert restored.equals(_table(folder, "STR"))
