"""``mteb-evalrank export-upstream``: the plugin's EvalRank tasks as a patch to MTEB itself.

The only way onto the public MTEB leaderboard is for tasks to be part of MTEB.  :func:`export_upstream`
writes, for a given MTEB source tree (a git checkout or the unpacked sdist of the pinned version), a
``git diff`` in MTEB's own layout and conventions plus a pull-request description:

- ``mteb/_evaluators/text/evalrank_exact_scores.py``, ``evalrank_ranking.py`` and ``evalrank_ranking_*.py``
  — the plugin's exact-rank evaluator (:mod:`~mteb_evalrank.metrics.exact_scores` and each module of the
  package :mod:`mteb_evalrank.metrics.ranking` as one flat module, pure NumPy, copied with their imports
  rewritten): exact ranks among the whole background, query and positive
  excluded by index, ties counted against the positive (``ties="pessimistic"``), background-centred;
- ``mteb/tasks/retrieval/eng/evalrank.py`` — ``EvalRankWord`` and ``EvalRankSent`` as ``AbsTask``
  subclasses with the plugin's metadata (same names, same dataset path and revision, so result files the
  plugin wrote load unchanged), their descriptive statistics method and citation, and the STR rule:
  the published dataset blanks STR-only text, which the task refills from STR's original file at load
  time (checked against the published sha1), so STR is never redistributed;
- ``mteb/descriptive_stats/Retrieval/<Task>.json`` — the plugin's shipped statistics;
- the ``EvalRank`` :class:`mteb.Benchmark` in ``mteb/benchmarks/benchmarks/benchmarks.py`` (exported in
  its ``__init__``) and its entry in the leaderboard menu (``_leaderboard_menu.py``, General Purpose →
  Miscellaneous).

Type: MTEB's ``TaskMetadata.type`` is a closed list; EvalRank is ranking among a corpus, so it maps to the
nearest existing type, ``Retrieval`` (as the plugin already does), with its own evaluator (MTEB's
retrieval route keeps top-k per query and cannot give exact ranks among ~25k items).  No change to the
type list is needed.

Which tasks (:data:`EXPORTED_TASKS`, :data:`NOT_EXPORTED`): see :func:`pr_description`.  The source tree
given is never modified: the touched files are copied into a scratch git repository, edited there, and
``git diff`` of that repository is the patch (paths relative to the MTEB tree, ``git apply``-able).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from mteb_evalrank.atomic_files import scratch_folder
from mteb_evalrank.data.files import atomic_write_text
from mteb_evalrank.errors import InputError


def exported_tasks() -> tuple[str, ...]:
    """The tasks the patch adds to MTEB: the plugin's EvalRank tasks (the tasks whose declared role is
    ``intrinsic``), in registration order."""
    from mteb_evalrank.integration.task_lookup import plugin_task_names

    return plugin_task_names(role="intrinsic")


def __getattr__(name: str) -> Any:
    if name == "EXPORTED_TASKS":  # the tasks the patch adds to MTEB (:func:`exported_tasks`), read on first use
        return exported_tasks()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: plugin tasks left out of the patch, and why (the PR description repeats this)
NOT_EXPORTED: dict[str, str] = {
    "HEROS": "its main score (mean normalised cosine of minimal pairs) has no better direction — a good encoder "
    "should score synonyms high and antonyms/negations low — so it cannot rank models on a leaderboard; it is "
    "a diagnostic, and stays in the plugin (`mteb-evalrank heros-report`)",
    "N2O": "it compares embedders with each other (neighbour overlap between two models); its per-model needle score "
    "is a side product, not the method",
    "word-similarity tasks (WS-353-All ... VERB-143)": "13 small sets (30 to 3,500 word pairs) of single words "
    "scored with the EvalRank toolkit's conventions (mean-centred embeddings, out-of-vocabulary handling of "
    "word-vector models); as plain STS they add little to MTEB, and their positive pairs already enter "
    "MTEB through EvalRankWord",
    "STS baselines (SentEvalSTS12-16, SentEvalSTSB, SentEvalSICKR, STR)": "MTEB already has STS12-16, "
    "STSBenchmark and SICK-R; the plugin's versions differ only in SentEval's tokenisation and aggregation, "
    "and STR's text may not be redistributed",
    "SentEval downstream (MR, CR, SUBJ, MPQA, SST2, SST5, TREC, MRPC, SICK-E, SciCite)": "they reproduce SentEval's "
    "classifier protocol (cross-validated logistic regression with SentEval's grid) for the correlation study; "
    "MTEB's classification protocol is different by design, and adding a second protocol for the same "
    "kind of task would make MTEB's classification scores incomparable",
}

TASK_MODULE = "mteb/tasks/retrieval/eng/evalrank.py"
TASKS_INIT = "mteb/tasks/retrieval/eng/__init__.py"
RANKING_MODULE = "mteb/_evaluators/text/evalrank_ranking.py"
EXACT_MODULE = "mteb/_evaluators/text/evalrank_exact_scores.py"
BENCHMARKS_MODULE = "mteb/benchmarks/benchmarks/benchmarks.py"
BENCHMARKS_INIT = "mteb/benchmarks/benchmarks/__init__.py"
MENU_MODULE = "mteb/benchmarks/_leaderboard_menu.py"
STATS_DIR = "mteb/descriptive_stats/Retrieval"
PATCH_NAME = "mteb-evalrank-upstream.patch"
PR_NAME = "PR_DESCRIPTION.md"
#: the menu entry the benchmark joins (General Purpose → Miscellaneous), found by its last benchmark
MENU_ANCHOR = '"MINERSBitextMining",'

_REQUIRED = (
    TASKS_INIT,
    BENCHMARKS_MODULE,
    BENCHMARKS_INIT,
    MENU_MODULE,
    "mteb/_evaluators/text",
    "mteb/abstasks/abstask.py",
)


def check_mteb_source(path: str | Path) -> Path:
    """``path`` as an MTEB 2.x source tree, or :class:`InputError` naming what is missing."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(f"--mteb-source {path} is not a folder (give an MTEB checkout or unpacked sdist)")
    missing = [p for p in _REQUIRED if not (root / p).exists()]
    if missing:
        raise InputError(f"--mteb-source {path} is not an MTEB 2.x source tree: no {missing[0]}")
    return root


# --- generated files ----------------------------------------------------------------------------------------
def _evaluator_sources() -> dict[str, str]:
    """The plugin's ranking core (:mod:`mteb_evalrank.metrics.exact_scores` and the modules of the package
    :mod:`mteb_evalrank.metrics.ranking`), one flat MTEB module each, with their imports rewritten to
    MTEB's package; :class:`InputError` is defined in the module that raises it."""
    import ast

    from mteb_evalrank.metrics import exact_scores, ranking

    errors = '''

class InputError(ValueError):
    """Bad input to the EvalRank evaluator (embeddings, indices or options)."""
'''
    here = "mteb._evaluators.text"
    sources = {EXACT_MODULE: ("metrics/exact_scores.py", Path(exact_scores.__file__))}
    package = Path(ranking.__file__).parent
    for path in sorted(package.glob("*.py")):
        name = RANKING_MODULE if path.stem == "__init__" else RANKING_MODULE.replace(".py", f"_{path.stem}.py")
        sources[name] = (f"metrics/ranking/{path.name}", path)
    header = "# Exported from mteb-evalrank (Apache-2.0), module {}\n"
    out = {}
    for target, (origin, path) in sources.items():
        text = path.read_text(encoding="utf-8")
        raises = "from mteb_evalrank.errors import InputError\n" in text
        text = text.replace("from mteb_evalrank.errors import InputError\n", "")
        text = re.sub(r"mteb_evalrank\.metrics\.ranking\.(\w+)", rf"{here}.evalrank_ranking_\1", text)
        text = text.replace("mteb_evalrank.metrics.ranking", f"{here}.evalrank_ranking")
        text = text.replace(
            "from mteb_evalrank.metrics import exact_scores as", f"from {here} import evalrank_exact_scores as"
        )
        text = text.replace("mteb_evalrank.metrics.exact_scores", f"{here}.evalrank_exact_scores")
        text = text.replace("mteb_evalrank.errors.InputError", "InputError")
        text = re.sub(r":mod:`\.(exact|ties|tie_arithmetic|scores)`", r":mod:`.evalrank_ranking_\1`", text)
        if raises:  # the class goes right after the module's imports
            imports = ast.parse(text).body
            last = max(n.end_lineno or n.lineno for n in imports if isinstance(n, (ast.Import, ast.ImportFrom)))
            lines = text.splitlines(keepends=True)
            text = "".join(lines[:last]) + errors + "".join(lines[last:])
        out[target] = header.format(origin) + text
    for name, text in out.items():
        leftover = re.findall(r"mteb_evalrank[\w.]*", text)
        if leftover:
            raise InputError(f"internal: {name} still names {sorted(set(leftover))}")
    return out


_METADATA_FIELDS = (
    "name",
    "description",
    "reference",
    "dataset",
    "type",
    "category",
    "modalities",
    "date",
    "eval_splits",
    "eval_langs",
    "main_score",
    "domains",
    "task_subtypes",
    "license",
    "annotations_creators",
    "dialect",
    "sample_creation",
    "bibtex_citation",
)


def _py(value: Any) -> str:
    """A Python literal for ``value`` in MTEB's style (double-quoted strings, as ruff format writes them)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        return "(" + ", ".join(_py(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_py(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py(k)}: {_py(v)}" for k, v in value.items()) + "}"
    if hasattr(value, "isoformat"):
        return repr(value.isoformat())
    return repr(value)


def _metadata_source(task_cls) -> str:
    meta = task_cls.metadata
    lines = []
    for field in _METADATA_FIELDS:
        value = getattr(meta, field)
        if field == "bibtex_citation":
            lines.append("        bibtex_citation=_CITATION,")
            continue
        if field == "dataset":
            value = {"path": value["path"], "revision": value["revision"]}
        lines.append(f"        {field}={_py(value)},")
    return "    metadata = TaskMetadata(\n" + "\n".join(lines) + "\n    )\n"


_TASK_TEMPLATE = '''"""EvalRank (Wang, Kuo & Li, ACL 2022, "Just Rank"): word- and sentence-level ranking evaluation.

For each positive pair (x, y) -- both directions of the top 25% pairs of similarity datasets -- the rank of
y among the whole background by cosine (and l2) similarity of background-centred embeddings; MRR and
Hits@k.  Exact ranks: items scoring equal to the positive rank above it (``ties="pessimistic"``), the
query and the positive's own entry are excluded by index (``mteb._evaluators.text.evalrank_ranking``).
One subset, ``default``: its main score is the MRR over all pairs (the paper's figure); the same figures per
source dataset, every pair ranked against the full background, are in ``scores_per_source`` (not subsets: MTEB
averages a task's subsets, and a whole must not be averaged with its parts).

EvalRankSent's published dataset blanks the text of STR-only sentences (STR-2022 may not be
redistributed); :meth:`EvalRankSent.load_data` refills it from STR's original file, checked against the
published sha1 of each sentence.

Exported from mteb-evalrank; results written by the plugin load unchanged (same task names, same dataset
revisions).
"""

from __future__ import annotations

import csv
import hashlib
import io
import urllib.request
from typing import Any

import numpy as np
from datasets import load_dataset

from mteb._create_dataloaders import _create_dataloader_from_texts
from mteb._evaluators.text.evalrank_ranking import evalrank_ranks, summarize_ranks
from mteb.abstasks.abstask import AbsTask
from mteb.abstasks.task_metadata import TaskMetadata

_CITATION = r"""{{CITATION}}"""

#: STR-2022 (Abdalla et al., EACL 2023) at the commit the dataset was built from; research use, not redistributed
STR_SOURCE_URL = "{{STR_URL}}"


class _EvalRankTask(AbsTask):
    """Shared EvalRank task: load the ``pairs`` and ``background`` configs, encode the background once per
    model, rank every positive once, summarise all pairs and each source dataset."""

    center: bool = True
    ties: str = "pessimistic"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._ranks_for: tuple[int, str] | None = None
        self._ranks: Any = None

    def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
        """Both configs, as index arrays into the unique background texts (``self.dataset[subset][split]``
        holds the pair rows of that subset)."""
        if self.data_loaded:
            return
        config = {"path": self.metadata.dataset["path"], "revision": self.metadata.dataset["revision"]}
        split = self.metadata.eval_splits[0]
        pairs = load_dataset(name="pairs", split=split, **config).to_pandas()
        background = load_dataset(name="background", split=split, **config).to_pandas()
        pairs, background = self._restore_redacted(pairs, background)
        self.texts = background["text"].tolist()
        index = {text: i for i, text in enumerate(self.texts)}
        if len(index) != len(self.texts):
            raise ValueError(f"{self.metadata.name}: the background texts must be unique.")
        self.query_idx = np.array([index[t] for t in pairs["query"]], dtype=np.int64)
        self.positive_idx = np.array([index[t] for t in pairs["positive"]], dtype=np.int64)
        sources = pairs["source"].to_numpy()
        self.dataset = {"default": {split: np.arange(len(pairs))}}
        self.parts = {str(source): np.flatnonzero(sources == source) for source in dict.fromkeys(sources)}
        self.data_loaded = True

    def _restore_redacted(self, pairs, background):
        return pairs, background

    def unload_data(self) -> None:
        self._ranks_for, self._ranks = None, None
        super().unload_data()

    def _model_ranks(self, model, hf_split: str, encode_kwargs, num_proc: int | None):
        key = (id(model), hf_split)
        if self._ranks_for != key:
            kwargs = dict(encode_kwargs)
            loader = _create_dataloader_from_texts(
                self.texts, batch_size=int(kwargs.get("batch_size") or 32), num_proc=num_proc
            )
            embeddings = model.encode(
                loader, task_metadata=self.metadata, hf_split=hf_split, hf_subset="all", prompt_type=None, **kwargs
            )
            if hasattr(embeddings, "detach"):
                embeddings = embeddings.detach().float().cpu().numpy()
            self._ranks = evalrank_ranks(
                np.asarray(embeddings, dtype=np.float32), self.query_idx, self.positive_idx,
                center=self.center, ties=self.ties,
            )
            self._ranks_for = key
        return self._ranks

    def _evaluate_subset(
        self,
        model,
        data_split,
        *,
        hf_split: str,
        hf_subset: str,
        encode_kwargs,
        prediction_folder=None,
        num_proc: int | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        ranks = self._model_ranks(model, hf_split, encode_kwargs, num_proc)

        def summary(rows) -> dict[str, Any]:
            return {
                **summarize_ranks(ranks.cos[rows]),
                **summarize_ranks(ranks.l2[rows], prefix="l2_"),
                "num_pairs": int(len(rows)),
            }

        return {
            **summary(np.asarray(data_split)),
            "num_background": int(len(self.texts)),
            "centered": self.center,
            "ties": self.ties,
            "scores_per_source": {source: summary(rows) for source, rows in self.parts.items()},
        }

    def _calculate_descriptive_statistics_from_split(
        self, split: str, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        rows = self.dataset["default"][split]
        lengths = np.fromiter((len(t) for t in self.texts), dtype=np.int64)
        used = np.unique(np.concatenate([self.query_idx[rows], self.positive_idx[rows]]))
        return {
            "num_samples": int(len(rows)),
            "number_of_pairs": int(len(rows)),
            "number_of_background_items": int(len(self.texts)),
            "unique_pair_items": int(len(used)),
            "min_text_length": int(lengths.min()),
            "average_text_length": float(lengths.mean()),
            "max_text_length": int(lengths.max()),
        }


class EvalRankWord(_EvalRankTask):
{{WORD_METADATA}}

class EvalRankSent(_EvalRankTask):
{{SENT_METADATA}}
    #: a local copy of STR's csv (default: download it from :data:`STR_SOURCE_URL`)
    str_csv_path: str | None = None

    def _restore_redacted(self, pairs, background):
        """Refill the blanked STR-only texts from STR's csv (ids ``str-<PairID>-<1|2>``), checking each
        against the published ``text_sha1``."""
        blank = background["text"].isna() | (background["text"] == "")
        if blank.any():
            if self.str_csv_path:
                with open(self.str_csv_path, encoding="utf-8") as f:
                    raw = f.read()
            else:
                with urllib.request.urlopen(STR_SOURCE_URL, timeout=60) as response:
                    raw = response.read().decode("utf-8")
            source = {}
            for row in csv.DictReader(io.StringIO(raw)):
                first, second = row["Text"].split("\\n")
                source[f"str-{row['PairID'].strip()}-1"], source[f"str-{row['PairID'].strip()}-2"] = first, second
            restored = [source[i] for i in background.loc[blank, "id"]]
            digests = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in restored]
            if digests != background.loc[blank, "text_sha1"].tolist():
                raise ValueError("EvalRankSent: the STR file differs from the release the dataset was built from.")
            background.loc[blank, "text"] = restored
            text_of = dict(zip(background["id"], background["text"]))
            for text_col, id_col in (("query", "query_id"), ("positive", "positive_id")):
                empty = pairs[text_col].isna() | (pairs[text_col] == "")
                pairs.loc[empty, text_col] = pairs.loc[empty, id_col].map(text_of)
        return pairs, background.drop(columns=["text_sha1"], errors="ignore")
'''


def _task_module() -> str:
    from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION
    from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL
    from mteb_evalrank.tasks.evalrank import EvalRankSent, EvalRankWord

    return (
        _TASK_TEMPLATE.replace("{{CITATION}}", EVALRANK_CITATION)
        .replace("{{STR_URL}}", STR_SOURCE_URL)
        .replace("{{WORD_METADATA}}", _metadata_source(EvalRankWord))
        .replace("{{SENT_METADATA}}", _metadata_source(EvalRankSent))
    )


def _benchmark_source() -> str:
    from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION

    return f'''

EVALRANK = Benchmark(
    name="EvalRank",
    display_name="EvalRank",
    tasks=get_tasks(tasks={list(exported_tasks())!r}),
    description="EvalRank (Wang, Kuo & Li, ACL 2022): word- and sentence-level ranking evaluation of text embeddings. "
    "For each highly rated similarity pair, the rank of the partner among the whole vocabulary (22,207 words) or "
    "sentence pool (24,957 sentences), reported as MRR and Hits@k. The paper shows these scores correlate with "
    "downstream performance better than STS correlations. Exact ranks; ties count against the positive.",
    reference="https://aclanthology.org/2022.acl-long.419",
    citation=r"""
{EVALRANK_CITATION}
""",
    contacts=None,
)
'''


def _edit_tasks_init(text: str) -> str:
    text = text.replace("from .fever", "from .evalrank import EvalRankSent, EvalRankWord\nfrom .fever", 1)
    if "from .evalrank import" not in text:  # no ``fever`` module: put the import first
        text = "from .evalrank import EvalRankSent, EvalRankWord\n" + text
    head, sep, tail = text.partition("__all__ = [\n")
    if not sep:
        raise InputError(f"{TASKS_INIT} has no `__all__ = [` list")
    return head + sep + '    "EvalRankSent",\n    "EvalRankWord",\n' + tail


def _edit_benchmarks_init(text: str) -> str:
    text = text.replace("    ENCODECHKA,\n", "    ENCODECHKA,\n    EVALRANK,\n", 1)
    text = text.replace('    "ENCODECHKA",\n', '    "ENCODECHKA",\n    "EVALRANK",\n', 1)
    if text.count("EVALRANK") != 2:
        raise InputError(f"{BENCHMARKS_INIT}: cannot find where to export EVALRANK (no ENCODECHKA entries)")
    return text


def _edit_menu(text: str) -> str:
    if MENU_ANCHOR not in text:
        raise InputError(f"{MENU_MODULE}: no {MENU_ANCHOR} entry to add the EvalRank benchmark after")
    # the anchor's indentation; the anchor may open the file (no line break before it)
    found = re.search(r"(?:^|\n)([ \t]*)" + re.escape(MENU_ANCHOR), text)
    indent = found.group(1) if found is not None else ""
    return text.replace(MENU_ANCHOR, f'{MENU_ANCHOR}\n{indent}"EvalRank",', 1)


def _stats_files() -> dict[str, str]:
    from mteb_evalrank.tasks._base import SHIPPED_STATS_DIR

    out = {}
    for name in exported_tasks():
        data = json.loads((SHIPPED_STATS_DIR / f"{name}.json").read_text(encoding="utf-8"))
        out[f"{STATS_DIR}/{name}.json"] = json.dumps(data, indent=4, ensure_ascii=False) + "\n"
    return out


# --- the patch ----------------------------------------------------------------------------------------------
def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=mteb-evalrank", "-c", "user.email=export@localhost", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def build_patch(mteb_source: str | Path) -> str:
    """The ``git diff`` (paths relative to the MTEB tree) that adds the exported tasks to ``mteb_source``."""
    root = check_mteb_source(mteb_source)
    edits = {TASKS_INIT: _edit_tasks_init, BENCHMARKS_INIT: _edit_benchmarks_init, MENU_MODULE: _edit_menu}
    new_files = {TASK_MODULE: _task_module(), **_evaluator_sources(), **_stats_files()}
    existing = [p for p in new_files if (root / p).exists()]
    if existing:
        raise InputError(f"--mteb-source {mteb_source} already has {existing[0]} (already patched?)")
    with scratch_folder(prefix="mteb-evalrank-export-") as tmp:
        repo = Path(tmp)
        for rel in (*edits, BENCHMARKS_MODULE):
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, repo / rel)
        _git(repo, "init", "-q")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "MTEB files the patch touches")
        for rel, edit in edits.items():
            path = repo / rel
            path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
        bench = repo / BENCHMARKS_MODULE
        bench.write_text(bench.read_text(encoding="utf-8").rstrip("\n") + "\n" + _benchmark_source(), encoding="utf-8")
        for rel, text in new_files.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text, encoding="utf-8")
        _git(repo, "add", "-A")
        return _git(repo, "diff", "--cached", "--no-color", "--no-ext-diff")


def pr_description() -> str:
    """The pull request's text: what is added, the datasets and their licences, and why other tasks are not."""
    from mteb_evalrank.data.resolution import HUB_DATASETS

    word, sent = HUB_DATASETS["evalrank-word"], HUB_DATASETS["evalrank-sent"]
    not_exported = "\n".join(f"- **{name}**: {why}." for name, why in NOT_EXPORTED.items())
    return f"""# Add EvalRank (EvalRankWord, EvalRankSent) and the EvalRank benchmark

EvalRank (Wang, Kuo & Li, ACL 2022, "Just Rank: Rethinking Evaluation with Word and Sentence Similarities",
https://aclanthology.org/2022.acl-long.419) evaluates text embeddings by ranking: for each highly rated
similarity pair, the rank of the partner among the whole background. The paper shows that these scores
correlate better with downstream performance than STS correlations do. MTEB has no task that measures this.

## What this adds

- `EvalRankWord`, `EvalRankSent` (`mteb/tasks/retrieval/eng/evalrank.py`), type `Retrieval`, main score `mrr`
  over all pairs (the paper's figure), in one subset `default`; the same figures per source dataset (every pair
  ranked against the full background) are in the entry's `scores_per_source`, as classification tasks keep
  `scores_per_experiment`, so that MTEB's mean over subsets is the paper's number.
- The exact-rank evaluator (`mteb/_evaluators/text/evalrank_ranking.py`, `evalrank_exact_scores.py`): exact
  ranks among ~25k items, not top-k retrieval. The query and the positive's own entry are excluded by
  index, items scoring equal to the positive rank above it, embeddings are mean-centred over the
  background (as the reference toolkit does). The reference toolkit lets BLAS rounding add 1 to about a
  quarter of the ranks; this evaluator does not, so its numbers do not depend on the BLAS library and are
  higher than those published with the toolkit.
- Descriptive statistics (`mteb/descriptive_stats/Retrieval/`), citations.
- The `EvalRank` benchmark and its leaderboard-menu entry (General Purpose -> Miscellaneous).

## Datasets and licences

| task | dataset | revision | contents | licence |
|---|---|---|---|---|
| EvalRankWord | `{word.repo_id}` | `{word.revision}` | 5,514 directed pairs (top 25% of 13 word-similarity sets), 22,207 background words (pair words, all words of the 13 sets, 20k frequent words) | the word-similarity sets' own terms (WS-353, MEN, SimLex-999, SimVerb-3500, RW, MTurk-287/771, MC-30, RG-65, YP-130, VERB-143) |
| EvalRankSent | `{sent.repo_id}` | `{sent.revision}` | 6,989 directed pairs (top 25% of STS-B and STR-2022), 24,957 background sentences | STS-B: scores CC BY-SA 4.0, text under its sources' terms; STR-2022: research use, **not redistributed** |

STR is never redistributed: the published `evalrank-sent` keeps every row but blanks the text of
STR-only sentences and stores its sha1; `EvalRankSent.load_data` downloads STR's csv from its original
location (Priya22/semantic-textual-relatedness, pinned commit) and refills and verifies the text.

## Checks

- MTEB's `tests/test_tasks/test_metadata.py`, `tests/test_validate_metadata/test_citation_formatting.py`
  and `tests/test_benchmarks/` pass on the new tasks and benchmark.
- Scores are reproduced: the patched MTEB gives the same EvalRankSent scores as mteb-evalrank on the
  same model, and result files written by mteb-evalrank load unchanged (same task names, same dataset
  revisions).

## Not included, and why

{not_exported}
"""


def export_upstream(mteb_source: str | Path, out: str | Path) -> tuple[Path, Path]:
    """Write ``out/mteb-evalrank-upstream.patch`` and ``out/PR_DESCRIPTION.md``; return both paths."""
    patch = build_patch(mteb_source)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is an existing file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    patch_path, pr_path = out / PATCH_NAME, out / PR_NAME
    atomic_write_text(patch_path, patch)  # temporary files renamed over the targets (all or nothing under the CLI)
    atomic_write_text(pr_path, pr_description())
    return patch_path, pr_path
