"""What the README promises about the repository and MTEB's tables, checked (issue 19, item 10)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_repository_path_the_readme_names_for_papers_exists():
    """``papers/rankencoder.md`` was cited, but the papers are not part of the repository."""
    named = set(re.findall(r"`(papers/[^`]+)`", README))
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"README names files that are not in the repository: {missing}"


def test_the_study_plots_are_not_git_ignored():
    """The README promises ``docs/study/*.png``; ``.gitignore``'s ``*.png`` once hid them (``!docs/*.png``
    does not reach ``docs/study/``)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for name in ("docs/study/ranks.png", "docs/study/correlation.png", "docs/study/ranks_mr.png"):
        assert f"`{name.split('/')[-1]}`" in README, name  # the README promises it ...
        proc = subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT)
        assert proc.returncode == 1, f"{name} is git-ignored"  # ... and git keeps it


def test_zoo_models_are_in_mtebs_leaderboard_summary_and_local_models_are_not(tmp_path):
    """The README said zoo models do not appear in ``get_benchmark_result()``; they do (their ModelMeta is
    in MTEB's registry), only ``local/`` models are dropped."""
    import mteb
    from results_fixture import MODELS, write_results

    zoo = mteb.get_model_meta("zoo/glove-50d__abtt")
    write_results(tmp_path, [MODELS[0], (zoo.name, zoo.revision), ("local/glove.6B.50d", "0" * 12)],
                  tasks={"EvalRankSent", "SentEvalMR"})  # fmt: skip
    res = mteb.ResultCache(tmp_path).load_results(tasks="EvalRank", validate_and_filter=True, include_remote=False)
    listed = set(res.get_benchmark_result()["Model"])
    assert listed == {MODELS[0][0], "zoo/glove-50d__abtt"}
    assert "Zoo (`zoo/...`) and local models" not in README
    assert "Zoo models (`zoo/...`) are listed" in README


def test_the_batch_size_paragraph_quotes_the_measured_mrr():
    """The paragraph quoted EvalRankSent MRR 0.8292 -> 0.8296 for batch sizes 32 -> 64; the run gives
    0.8295 -> 0.8298, and the benchmark line (batch size 64) shows 0.8298."""
    paragraph = README[README.index("**Reproducibility.**"):][:600]
    assert "0.8295" in paragraph and "0.8298" in paragraph, paragraph
    assert "0.8292" not in README and "0.8296" not in README
    assert "MRR 0.8298" in README  # the benchmark line the paragraph agrees with
