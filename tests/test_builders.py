"""Dataset builders (EvalRank word/sentence level), the Hub layout, the push routine and STR handling.

Fixture counts (tests/fixtures/sources, checked by hand):

- word level: 13 sets of 4 lines (MEN-TR-3k and WS-353-ALL: 8) -> 15 top rows; WS-353-ALL's top row
  ``tiger tiger`` is dropped; RG-65 ``automobile car`` and WS-353-SIM ``cat tiger`` repeat earlier pairs
  (4 directed pairs skipped) -> 12 unordered pairs = 24 directed.  MEN-TR-3k ``river water`` and
  ``bakery bread`` tie at 45.0: the stable sort keeps the first.  Background: 101 distinct words in the
  13 sets + 4 new wiki words (the, of, and, the_end) = 105.
- sentence level: STS-B 6 + 3 + 3 = 12 pairs -> top 3: train 1 (2 directed), train 3 (s1 = s2: 1),
  dev 1 (train 1 reversed, 9 fields: 0); STR 12 pairs -> top 3: rows 0 (2), 1 (2), 2 (row 0 reversed: 0)
  -> 7 directed pairs.  STS-B 20 unique sentences, STR 22, one shared ("a cat sits on the mat .")
  -> 41 background sentences, 21 only in STR.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mteb_evalrank.errors import DataNotFoundError, InputError, SourceFormatError
from mteb_evalrank.hub_datasets import BUILDERS, evalrank_format, layout, push
from mteb_evalrank.hub_datasets.evalrank_sent import build as build_sent
from mteb_evalrank.hub_datasets.evalrank_sent import check_pushable, prepare_for_push, restore_str_text
from mteb_evalrank.hub_datasets.evalrank_sent.build import read_sources, read_str
from mteb_evalrank.hub_datasets.evalrank_word import build as build_word

STR_CSV = Path("sts_senteval/STR/sem_text_rel_ranked.csv")
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sources"


@pytest.fixture
def sources(tmp_path, fixture_sources) -> Path:
    """A writable copy of the fixture sources (tests corrupt it)."""
    return Path(shutil.copytree(fixture_sources, tmp_path / "sources"))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("built")
    build_word(FIXTURES, out / "word")
    build_sent(FIXTURES, out / "sent")
    return {"word": out / "word", "sent": out / "sent"}


def _tables(folder: Path):
    return (layout.read_config(folder, "pairs").to_pandas(), layout.read_config(folder, "background").to_pandas())


def _str_only_sentences(sources: Path) -> set[str]:
    stsb, str_pairs = read_sources(sources)
    in_stsb = {s for p in stsb for s in (p.s1, p.s2)}
    return {s for p in str_pairs for s in (p.s1, p.s2)} - in_stsb


# --- word level --------------------------------------------------------------------------------
def test_word_builder_counts_on_fixture(fixture_sources, tmp_path):
    report = build_word(fixture_sources, tmp_path / "out")
    assert report["pairs"] == 24
    assert report["background"] == 105
    assert report["top_rows"] == 15
    assert report["self_pairs_dropped"] == 1
    assert report["duplicate_directed_pairs_skipped"] == 4
    assert report["background_pair_words"] == 24
    assert report["background_added_from_datasets"] == 77
    assert report["background_added_from_wiki"] == 4
    assert report["pairs_RG-65"] == 0 and report["pairs_WS-353-SIM"] == 0  # claimed by MC-30 / WS-353-ALL
    assert report["pairs_MEN-TR-3k"] == 4


def test_word_pairs_rules(built):
    pairs, background = _tables(built["word"])
    assert list(pairs.columns) == list(evalrank_format.PAIRS_COLUMNS)
    assert list(background.columns) == list(evalrank_format.BACKGROUND_COLUMNS)
    directed = set(zip(pairs["query"], pairs["positive"]))
    assert len(directed) == len(pairs) == 24
    assert all((p, q) in directed for q, p in directed)  # both orders
    assert not any(q == p for q, p in directed)  # w1 = w2 dropped
    assert ("river", "water") in directed and ("bakery", "bread") not in directed  # stable tie order
    assert ("computer", "keyboard") in directed  # lowercased
    source = dict(zip(zip(pairs["query"], pairs["positive"]), pairs["source"]))
    assert source[("car", "automobile")] == source[("automobile", "car")] == "MC-30"  # first set wins
    assert source[("cat", "tiger")] == "WS-353-ALL"
    assert (pairs["query_id"] == pairs["query"]).all() and (pairs["positive_id"] == pairs["positive"]).all()
    assert (background["id"] == background["text"]).all()
    words = background["text"].tolist()
    assert len(set(words)) == len(words) == 105
    assert words[:4] == ["car", "automobile", "sun", "sunlight"]  # pair words first, in pair order
    assert words[-4:] == ["the", "of", "and", "the_end"]  # then set words, then the wiki list
    assert evalrank_format.check_tables(pairs, background) == []


def test_word_background_is_all_set_words_plus_wiki(fixture_sources, built):
    words = set()
    for path in (fixture_sources / "word_similarity").glob("EN-*.txt"):
        for line in path.read_text().splitlines():
            words.update(line.lower().split()[:2])
    assert len(words) == 101
    wiki = (fixture_sources / "wiki_vocab" / "wiki_vocab_20k.txt").read_text().split()
    assert set(_tables(built["word"])[1]["text"]) == words | set(wiki)


# --- sentence level ----------------------------------------------------------------------------
def test_sent_builder_counts_on_fixture(fixture_sources, tmp_path):
    report = build_sent(fixture_sources, tmp_path / "out")
    assert report == {
        "pairs": 7,
        "background": 41,
        "stsb_pairs_read": 12,
        "str_pairs_read": 12,
        "stsb_top_pairs": 3,
        "str_top_pairs": 3,
        "self_pairs": 1,
        "duplicate_directed_pairs_skipped": 4,
        "stsb_sentences": 20,
        "str_sentences": 22,
        "shared_sentences": 1,
        "str_only_sentences": 21,
        "pairs_stsb": 3,
        "pairs_str": 4,
    }


def test_sent_pairs_ids_and_self_pair(built):
    pairs, background = _tables(built["sent"])
    rows = list(zip(pairs["query_id"], pairs["positive_id"], pairs["source"]))
    assert rows == [
        ("stsb-train-1-1", "stsb-train-1-2", "stsb"),
        ("stsb-train-1-2", "stsb-train-1-1", "stsb"),
        ("stsb-train-3-1", "stsb-train-3-1", "stsb"),  # s1 = s2: one directed pair
        ("str-Formality_pp_1-1", "str-Formality_pp_1-2", "str"),
        ("str-Formality_pp_1-2", "str-Formality_pp_1-1", "str"),
        ("str-STS_1-1", "stsb-train-1-1", "str"),  # shared sentence keeps its first (STS-B) id
        ("stsb-train-1-1", "str-STS_1-1", "str"),
    ]
    text = dict(zip(background["id"], background["text"]))
    assert text["stsb-train-1-1"] == "a cat sits on the mat ."
    assert text["str-ParaNMT_pp_1-1"] == 'She said "hello", then left.'  # csv quoting, text as given
    assert text["str-Formality_pp_1-2"] == "It's raining today, isn't it?"  # not tokenised or lowercased
    assert "stsb-train-4-1" not in text  # repeated sentence: only the first occurrence's id
    assert background["text"].is_unique and background["id"].is_unique
    assert evalrank_format.check_tables(pairs, background) == []


def test_str_with_windows_line_ends_gives_the_same_dataset(sources, tmp_path, built):
    csv_path = sources / STR_CSV
    csv_path.write_bytes(csv_path.read_bytes().replace(b"\n", b"\r\n"))
    build_sent(sources, tmp_path / "crlf")
    for config in ("pairs", "background"):
        assert layout.read_config(tmp_path / "crlf", config).equals(layout.read_config(built["sent"], config))


def test_builds_are_deterministic(fixture_sources, tmp_path):
    for name in ("evalrank-word", "evalrank-sent"):
        BUILDERS[name].build(fixture_sources, tmp_path / name / "a")
        BUILDERS[name].build(fixture_sources, tmp_path / name / "b")
        for path in sorted((tmp_path / name / "a").rglob("*")):
            if path.is_file():
                twin = tmp_path / name / "b" / path.relative_to(tmp_path / name / "a")
                assert path.read_bytes() == twin.read_bytes(), path


# --- malformed and missing sources -------------------------------------------------------------
@pytest.mark.parametrize(
    "builder, relpath, line_no, new_line, message",
    [
        (
            "evalrank-word",
            "word_similarity/EN-YP-130.txt",
            3,
            "build destroy",
            "expected 3 whitespace-separated fields",
        ),
        ("evalrank-word", "word_similarity/EN-MC-30.txt", 2, "ring\tbracelet\thigh", "score 'high' is not a number"),
        ("evalrank-word", "word_similarity/EN-RG-65.txt", 4, "glass\twizard\tnan", "not a finite number"),
        (
            "evalrank-sent",
            "sts_senteval/STS/STSBenchmark/sts-test.csv",
            2,
            "main\timages\t2015\t0002\t2.0",
            "expected 7 tab-separated fields",
        ),
        (
            "evalrank-sent",
            "sts_senteval/STS/STSBenchmark/sts-train.csv",
            5,
            "g\tf\ty\ti\tfive\ta .\tb .",
            "score 'five'",
        ),
    ],
)
def test_malformed_line_names_file_and_line(sources, tmp_path, builder, relpath, line_no, new_line, message):
    path = sources / relpath
    lines = path.read_text().split("\n")
    lines[line_no - 1] = new_line
    path.write_text("\n".join(lines))
    with pytest.raises(SourceFormatError, match=re.escape(message)) as info:
        BUILDERS[builder].build(sources, tmp_path / "out")
    assert info.value.path == str(path) and info.value.line == line_no
    assert f"{path}, line {line_no}:" in str(info.value)


@pytest.mark.parametrize(
    "old, new, line_no, message",
    [
        (
            '"He bought three apples.\nApples are red."',
            '"He bought three apples."',
            14,
            "two sentences separated by one newline",
        ),
        (",0.4\n", ",very\n", 16, "score 'very' is not a number"),
        (",0.4\n", ",57\n", 16, "score '57' is outside [0, 1] (STR's range)"),  # issue 47: not STR's scores
        (",0.4\n", ",-0.5\n", 16, "score '-0.5' is outside [0, 1]"),
        (
            "6,ParaNMT,ParaNMT_pp,ParaNMT_pp_2,",
            "6,ParaNMT,ParaNMT_pp,",
            14,
            "expected 6 comma-separated fields, found 5",
        ),
        ("STS,STS,STS_3,", "STS,STS,STS_2,", 16, "duplicated PairID 'STS_2'"),
        ('"Music is loud here.\n', '"\n', 24, "empty sentence"),
        (
            "Index,SourceID,SubsetID,PairID,Text,Score",
            "Index,SourceID,SubsetID,ID,Text,Score",
            1,
            "lacks columns ['PairID']",
        ),
    ],
)
def test_malformed_str_record_names_file_and_first_line(sources, tmp_path, old, new, line_no, message):
    path = sources / STR_CSV
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    with pytest.raises(SourceFormatError, match=re.escape(message)) as info:
        build_sent(sources, tmp_path / "out")
    assert info.value.path == str(path) and info.value.line == line_no


def test_sts_b_extra_fields_are_ignored_like_senteval(built):
    # dev line 1 has 9 fields; it is read (its sentences are known) but repeats train line 1
    _, background = _tables(built["sent"])
    assert "a cat is sitting on the mat ." in set(background["text"])


@pytest.mark.parametrize(
    "builder, relpath",
    [
        ("evalrank-word", "word_similarity/EN-YP-130.txt"),
        ("evalrank-word", "wiki_vocab/wiki_vocab_20k.txt"),
        ("evalrank-sent", "sts_senteval/STS/STSBenchmark/sts-dev.csv"),
        ("evalrank-sent", str(STR_CSV)),
    ],
)
def test_missing_source_file_is_named(sources, tmp_path, builder, relpath):
    (sources / relpath).unlink()
    with pytest.raises(SourceFormatError, match="missing") as info:
        BUILDERS[builder].build(sources, tmp_path / "out")
    assert info.value.path == str(sources / relpath)
    assert not (tmp_path / "out").exists()  # nothing written before all sources are read


def test_unknown_dataset_name():
    with pytest.raises(InputError, match="Unknown dataset 'nope'"):
        BUILDERS["nope"]


# --- Hub layout --------------------------------------------------------------------------------
@pytest.mark.integration
def test_load_dataset_reads_the_layout(built, tmp_path):
    datasets = pytest.importorskip("datasets")
    for name, n_pairs, n_background in (("word", 24, 105), ("sent", 7, 41)):
        pairs = datasets.load_dataset(str(built[name]), "pairs", split="test", cache_dir=str(tmp_path / "cache"))
        background = datasets.load_dataset(
            str(built[name]), "background", split="test", cache_dir=str(tmp_path / "cache")
        )
        assert pairs.num_rows == n_pairs and background.num_rows == n_background
        assert pairs.column_names == list(evalrank_format.PAIRS_COLUMNS)
        assert pairs[0]["query"] == layout.read_config(built[name], "pairs")["query"][0].as_py()


def test_card_front_matter_and_counts(built):
    meta, body = layout.read_card(built["sent"])
    assert meta["configs"][0] == {
        "config_name": "pairs",
        "data_files": [{"split": "test", "path": "pairs/test.parquet"}],
        "default": True,
    }
    assert meta["license"] == "other" and meta["language"] == ["en"]
    assert meta[layout.CARD_DATASET_KEY] == "evalrank-sent"
    assert "| directed positive pairs (`pairs`) | 7 |" in body  # counts from the build
    assert "mteb-evalrank build-data evalrank-sent --sources" in body
    assert "Just Rank: Rethinking Evaluation with Word and Sentence Similarities" in body
    assert "do not redistribute" in body and "text_sha1" in body
    meta, body = layout.read_card(built["word"])
    assert "| background words (`background`) | 105 |" in body and "BSD-3-Clause" in body
    assert layout.validate_folder(built["word"]) == [] and layout.validate_folder(built["sent"]) == []


def test_validate_folder_reports_problems(built, tmp_path):
    assert layout.validate_folder(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'} is not a directory."]
    broken = Path(shutil.copytree(built["word"], tmp_path / "broken"))
    (broken / "pairs" / "test.parquet").write_bytes(b"not parquet")
    (broken / "background" / "test.parquet").unlink()
    problems = layout.validate_folder(broken)
    assert any("pairs/test.parquet: not a readable parquet file" in p for p in problems)
    assert any("names 'background/test.parquet', which does not exist" in p for p in problems)
    (broken / "README.md").unlink()
    assert "cannot read the dataset card" in layout.validate_folder(broken)[0]
    with pytest.raises(DataNotFoundError, match="no README.md"):
        layout.read_config(broken, "pairs")
    with pytest.raises(DataNotFoundError, match="no config 'nope'"):
        layout.read_config(built["word"], "nope")


def test_check_tables_finds_inconsistencies(built):
    pairs, background = _tables(built["word"])
    assert evalrank_format.check_tables(pairs.iloc[1:], background) == [
        "pairs: 1 pairs lack their reverse direction, e.g. [('automobile', 'car')]"
    ]
    problems = evalrank_format.check_tables(pairs, background.iloc[1:])
    assert any("query ids not in the background" in p for p in problems)


# --- push --------------------------------------------------------------------------------------
def _all_strings(folder: Path) -> set[str]:
    out = set()
    for path in folder.rglob("*.parquet"):
        table = pq.read_table(path)
        for column in table.columns:
            if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
                out.update(v for v in column.to_pylist() if v)
    return out


def test_push_dry_run_lists_files(built, capsys, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)  # a dry run needs no token
    report = push.push_folder(built["word"], "org/evalrank-word", dry_run=True)
    assert [p for p, _ in report.files] == ["README.md", "background/test.parquet", "pairs/test.parquet"]
    assert all(size > 0 for _, size in report.files) and report.commit_sha is None
    out = capsys.readouterr().out
    assert "dry run: would upload evalrank-word" in out and "pairs/test.parquet" in out


def test_push_dry_run_never_includes_str_text(built, fixture_sources, tmp_path):
    stage = tmp_path / "stage"
    report = push.push_dataset("evalrank-sent", built["sent"], "org/evalrank-sent", dry_run=True)
    assert report.tag  # the dataset version tag the tasks load
    push.push_folder(built["sent"], "org/evalrank-sent", dry_run=True, staging_dir=stage)
    str_only = _str_only_sentences(fixture_sources)
    assert len(str_only) == 21
    staged = _all_strings(stage)
    assert not staged & str_only
    card = (stage / "README.md").read_text()
    assert not any(s in card for s in str_only)
    assert "a cat sits on the mat ." in staged  # STS-B text (also in STR) stays
    pairs, background = _tables(stage)
    assert (background["text"] == "").sum() == 21 and background["text_sha1"].str.len().eq(40).all()
    assert set(background.loc[background["text"] == "", "id"].str[:4]) == {"str-"}
    assert check_pushable(stage) == []
    assert check_pushable(built["sent"])  # the local build is not publishable as is
    assert evalrank_format.validate_dataset(stage) == []


def test_prepare_for_push_is_idempotent(built, tmp_path):
    once = prepare_for_push(built["sent"], tmp_path / "once")
    twice = prepare_for_push(once, tmp_path / "twice")
    for config in ("pairs", "background"):
        assert layout.read_config(once, config).equals(layout.read_config(twice, config))


class _FakeApi:
    """Stands in for huggingface_hub.HfApi: records calls, checks what would be uploaded."""

    calls: list = []
    tags: list = []

    def __init__(self, token=None):
        self.calls.append(("init", token))

    def create_repo(self, repo_id, **kwargs):
        self.calls.append(("create_repo", repo_id, kwargs))

    def list_repo_refs(self, repo_id, repo_type=None):
        from types import SimpleNamespace

        return SimpleNamespace(tags=[SimpleNamespace(name=t) for t in self.tags])

    def upload_folder(self, *, repo_id, folder_path, **kwargs):
        self.calls.append(("upload_folder", repo_id, _all_strings(Path(folder_path)), kwargs))
        from types import SimpleNamespace

        return SimpleNamespace(oid="a" * 40, commit_url=f"https://huggingface.co/datasets/{repo_id}/commit/{'a' * 40}")

    def create_tag(self, repo_id, *, tag, revision, repo_type=None):
        self.calls.append(("create_tag", repo_id, tag, revision, repo_type))


@pytest.fixture
def fake_hub(monkeypatch):
    import huggingface_hub

    _FakeApi.calls, _FakeApi.tags = [], []
    monkeypatch.setattr(huggingface_hub, "HfApi", _FakeApi)
    monkeypatch.setenv("HF_TOKEN", "hf_test_token")
    return _FakeApi


def test_push_uploads_the_staged_copy_and_prints_the_commit(built, fixture_sources, fake_hub, capsys):
    report = push.push_folder(built["sent"], "org/evalrank-sent", dry_run=False, tag="v9")
    kinds = [c[0] for c in fake_hub.calls]
    assert kinds == ["init", "create_repo", "upload_folder", "create_tag"]
    assert fake_hub.calls[0] == ("init", "hf_test_token")
    assert fake_hub.calls[1][2]["repo_type"] == "dataset" and fake_hub.calls[1][2]["exist_ok"] is True
    uploaded_strings = fake_hub.calls[2][2]
    assert not uploaded_strings & _str_only_sentences(fixture_sources)
    assert fake_hub.calls[3] == ("create_tag", "org/evalrank-sent", "v9", "a" * 40, "dataset")
    assert report.commit_sha == "a" * 40
    assert f"commit: {'a' * 40}" in capsys.readouterr().out


def test_push_refuses_an_existing_tag_before_uploading(built, fake_hub):
    fake_hub.tags = ["v1"]
    with pytest.raises(InputError, match="already has tag 'v1'"):
        push.push_folder(built["word"], "org/evalrank-word", dry_run=False, tag="v1")
    assert "upload_folder" not in [c[0] for c in fake_hub.calls]


def test_push_without_token_names_hf_token(built, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with pytest.raises(InputError, match="HF_TOKEN"):
        push.push_folder(built["word"], "org/evalrank-word", dry_run=False)


def test_push_refuses_unknown_or_mismatched_dataset(built, tmp_path):
    with pytest.raises(InputError, match="holds dataset 'evalrank-word', not 'evalrank-sent'"):
        push.push_folder(built["word"], "org/x", dry_run=True, dataset="evalrank-sent")
    copy = Path(shutil.copytree(built["sent"], tmp_path / "copy"))
    card = copy / "README.md"
    card.write_text(card.read_text().replace("mteb_evalrank_dataset: evalrank-sent\n", ""))
    with pytest.raises(InputError, match="does not name a known dataset"):
        push.push_folder(copy, "org/x", dry_run=True)


# --- restoring STR text ------------------------------------------------------------------------
def test_restore_str_text_round_trip(built, fixture_sources, tmp_path):
    stage = prepare_for_push(built["sent"], tmp_path / "stage")
    pairs, background = _tables(stage)
    restored_pairs, restored_background = restore_str_text(pairs, background, fixture_sources / STR_CSV)
    local_pairs, local_background = _tables(built["sent"])
    assert restored_background.equals(local_background)
    assert restored_pairs.equals(local_pairs)


def test_restore_str_text_detects_a_different_str_file(built, sources, tmp_path):
    stage = prepare_for_push(built["sent"], tmp_path / "stage")
    pairs, background = _tables(stage)
    path = sources / STR_CSV
    path.write_text(path.read_text().replace("Taxes rose again.", "Taxes rose again!"))
    with pytest.raises(SourceFormatError, match=r"1 STR sentences differ .*sha1 mismatch.*str-STS_4-2"):
        restore_str_text(pairs, background, path)
    lines = path.read_text().split("\n")
    path.write_text("\n".join(lines[:-3]) + "\n")  # drop the last record (2 lines)
    with pytest.raises(SourceFormatError, match=r"2 STR sentences of the dataset are not in this file"):
        restore_str_text(pairs, background, path)


def test_restore_without_blanks_is_a_no_op(built, fixture_sources):
    pairs, background = _tables(built["sent"])
    restored_pairs, restored_background = restore_str_text(pairs, background, fixture_sources / "missing.csv")
    assert restored_pairs.equals(pairs) and restored_background.equals(background)


def test_str_reader_matches_builder_ids(fixture_sources):
    pairs = read_str(fixture_sources / STR_CSV)
    assert [p.id1 for p in pairs[:2]] == ["str-Formality_pp_1-1", "str-STS_1-1"]
    assert pairs[1].s2 == "a cat sits on the mat ."


# --- real sources (shared/data/sources) --------------------------------------------------------
@pytest.mark.integration
def test_real_word_counts(shared_sources, tmp_path):
    report = build_word(shared_sources, tmp_path / "word")
    assert (report["pairs"], report["background"]) == (5514, 22207)
    assert sum(v for k, v in report.items() if k.startswith("pairs_")) == 5514
    assert all(report[f"pairs_{s}"] > 0 for s in ("MC-30", "WS-353-SIM", "WS-353-REL", "RG-65"))
    assert evalrank_format.validate_dataset(tmp_path / "word") == []


@pytest.mark.integration
def test_real_sent_counts_and_str_round_trip(shared_sources, tmp_path):
    report = build_sent(shared_sources, tmp_path / "sent")
    assert (report["pairs"], report["background"]) == (6989, 24957)
    assert (report["stsb_sentences"], report["str_sentences"]) == (15437, 9522)
    assert (report["stsb_pairs_read"], report["str_pairs_read"], report["self_pairs"]) == (8628, 5500, 13)
    stage = prepare_for_push(tmp_path / "sent", tmp_path / "stage")
    assert check_pushable(stage) == []
    pairs, background = _tables(stage)
    assert (background["text"] == "").sum() == report["str_only_sentences"]
    restored_pairs, restored_background = restore_str_text(pairs, background, shared_sources / STR_CSV)
    local_pairs, local_background = _tables(tmp_path / "sent")
    assert restored_background.equals(local_background) and restored_pairs.equals(local_pairs)
