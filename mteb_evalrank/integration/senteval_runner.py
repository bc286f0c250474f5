"""Run SentEval's own engine on any model the plugin can load (``mteb-evalrank senteval``).

SentEval (facebookresearch/SentEval, or the EvalRank toolkit's copy, which adds ``SCICITE`` and ``STR``)
is not on PyPI and is never a dependency: this module imports ``senteval`` when asked to run it, and
says how to install it otherwise.  The adapter:

- ``prepare(params, samples)``: SentEval hands it every sentence of the task as a token list; each is
  joined with single spaces (an empty one becomes ``"."``, as in SentEval's examples and the EvalRank
  toolkit), and all unique texts are encoded in one MTEB ``model.encode`` call
  (:func:`mteb_evalrank.integration.encoding.encode_texts`, with the metadata of the plugin task that
  corresponds to the SentEval task, so prompt-aware models see the same task as under ``mteb run``);
- ``batcher(params, batch)``: looks the batch up (texts ``prepare`` did not see are encoded on the fly)
  and returns a ``(len(batch), d)`` float32 array.  A batch item that is a string rather than a token
  list (the EvalRank toolkit's STR loader) is used as is.

Default parameters are the EvalRank toolkit's "prototyping" settings (:data:`EVALRANK_PROTOTYPING`).
The result dict goes through :func:`mteb_evalrank.integration.senteval_import.import_senteval_results`,
as ``import-senteval`` does, and is filed under the model's own name and revision in the MTEB
experiment ``evaluator=senteval``
(``results/<org>__<model>/<revision>/experiments/evaluator_senteval/<Task>.json``), so SentEval's
numbers never overwrite the plugin's own results for the same model.

SentEval on current Python: its ``get_optimizer`` calls ``inspect.getargspec``, removed in Python 3.11;
while the engine runs, a stand-in built on ``inspect.getfullargspec`` is provided (and removed after).
SentEval's original STS loader builds ragged numpy arrays, which numpy ≥ 1.24 rejects; the EvalRank
toolkit's copy does not.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import scratch_folder
from mteb_evalrank.errors import InputError

#: The EvalRank toolkit's SentEval parameters (``src/s_evaluation.py``: "for fast prototyping").
EVALRANK_PROTOTYPING: dict[str, Any] = {
    "usepytorch": True,
    "kfold": 5,
    "classifier": {"nhid": 0, "optim": "rmsprop", "batch_size": 128, "tenacity": 3, "epoch_size": 2},
}
#: MTEB experiment under which the engine's results are filed (kept apart from the plugin's own runs).
EXPERIMENT = {"evaluator": "senteval"}

INSTALL_HINT = (
    "SentEval is not installed (it is not on PyPI). Install it from its GitHub repository: "
    "`pip install git+https://github.com/facebookresearch/SentEval.git`, or put the EvalRank toolkit's copy "
    "(https://github.com/BinWang28/EvalRank-Embedding-Evaluation, folder src/, which adds SCICITE and STR) on "
    "PYTHONPATH. Its data: SentEval's data/downstream/get_transfer_data.bash, or --senteval-data."
)


def import_senteval_engine() -> Any:
    """``senteval.engine`` of the installed SentEval, or :class:`InputError` with how to install it."""
    try:
        import senteval.engine as engine
    except ImportError as exc:
        if getattr(exc, "name", None) not in (None, "senteval", "senteval.engine"):
            raise InputError(f"SentEval is installed but cannot be imported: {exc}") from exc
        raise InputError(INSTALL_HINT) from None
    if not hasattr(engine, "SE"):
        raise InputError(f"{getattr(engine, '__file__', 'senteval.engine')} has no class SE: not SentEval's engine.")
    return engine


def text_of(item: Any) -> str:
    """The text SentEval's batcher gets for one sentence: tokens joined by spaces; empty -> ``"."``."""
    if isinstance(item, str):
        return item if item.strip() else "."
    tokens = [str(t) for t in item]
    return " ".join(tokens) if tokens else "."


class MtebBatcher:
    """SentEval ``prepare``/``batcher`` pair over an MTEB encoder (see the module docstring)."""

    def __init__(self, model: Any, *, encode_kwargs: Mapping[str, Any] | None = None) -> None:
        self.model = model
        self.encode_kwargs = dict(encode_kwargs or {})
        self.task_name: str | None = None
        self._index: dict[str, int] = {}
        self._emb: np.ndarray | None = None
        self.encode_calls = 0
        self.texts_encoded = 0

    def _metadata(self, params: Any) -> Any:
        from mteb_evalrank.integration.senteval_import import SENTEVAL_TASKS

        current = _get(params, "current_task")
        spec = SENTEVAL_TASKS.get(current) if current else None
        if spec is not None:
            import mteb

            try:
                return mteb.get_task(spec.task_name).metadata
            except KeyError:
                pass
        return _generic_metadata()

    def _encode(self, params: Any, texts: Sequence[str]) -> np.ndarray:
        from mteb_evalrank.integration.encoding import encode_texts

        self.encode_calls += 1
        self.texts_encoded += len(texts)
        return encode_texts(self.model, texts, task_metadata=self._metadata(params), encode_kwargs=self.encode_kwargs)

    def prepare(self, params: Any, samples: Sequence[Any]) -> None:
        """Encode every unique sentence of the task once."""
        texts = list(dict.fromkeys(text_of(s) for s in samples))
        self._index, self._emb = {}, None
        if texts:
            self._emb = self._encode(params, texts)
            self._index = {t: i for i, t in enumerate(texts)}

    def batcher(self, params: Any, batch: Sequence[Any]) -> np.ndarray:
        """Embeddings of ``batch`` (rows in batch order)."""
        texts = [text_of(s) for s in batch]
        new = [t for t in dict.fromkeys(texts) if t not in self._index]
        if new:
            extra = self._encode(params, new)
            base = 0 if self._emb is None else len(self._emb)
            self._emb = extra if self._emb is None else np.vstack([self._emb, extra])
            self._index.update({t: base + i for i, t in enumerate(new)})
        rows = np.fromiter((self._index[t] for t in texts), dtype=np.int64, count=len(texts))
        assert self._emb is not None
        return self._emb[rows]


def _get(params: Any, key: str) -> Any:
    return params.get(key) if isinstance(params, Mapping) else getattr(params, key, None)


def _generic_metadata() -> Any:
    from mteb.abstasks.task_metadata import TaskMetadata

    return TaskMetadata(
        name="SentEval",
        description="A SentEval task run through SentEval's own engine.",
        dataset={"path": "facebookresearch/SentEval", "revision": "5d6dc11"},
        type="STS",
        eval_langs=["eng-Latn"],
        main_score="cosine_spearman",
    )


@contextlib.contextmanager
def _getargspec_shim() -> Iterator[None]:
    """``inspect.getargspec`` for SentEval's ``get_optimizer`` on Python ≥ 3.11 (only while it runs)."""
    if hasattr(inspect, "getargspec"):
        yield
        return
    inspect.getargspec = inspect.getfullargspec  # type: ignore[attr-defined]
    try:
        yield
    finally:
        del inspect.getargspec  # type: ignore[attr-defined]


# --- data -----------------------------------------------------------------------------------------
#: Where SentEval (``<task_path>/downstream/...``) and the EvalRank toolkit (``<task_path>sent_*/...``) look,
#: and where those folders are in the plugin's sources layout (``MTEB_EVALRANK_SOURCES``).
_VIEW = {
    "downstream/STS": "sts_senteval/STS",
    "downstream/SICK": "senteval_downstream/SICK",
    "sent_similarity/STS": "sts_senteval/STS",
    "sent_similarity/SICK": "sts_senteval/SICK",
    "sent_similarity/STR": "sts_senteval/STR",
    "sent_classification/SICK": "senteval_downstream/SICK",
    **{
        f"{top}/{name}": f"senteval_downstream/{name}"
        for top in ("downstream", "sent_classification")
        for name in ("MR", "CR", "SUBJ", "MPQA", "SST", "TREC", "MRPC", "SCICITE")
    },
}


@contextlib.contextmanager
def senteval_task_path(senteval_data: Path | str | None) -> Iterator[str]:
    """SentEval's ``task_path`` (with a trailing slash, which both engines accept).

    ``senteval_data``: SentEval's data folder (holding ``downstream/``; for the EvalRank toolkit,
    ``sent_classification/`` and ``sent_similarity/``).  Without it, the raw sources of
    ``MTEB_EVALRANK_SOURCES`` are presented in both layouts through a temporary folder of symlinks.
    """
    if senteval_data is not None:
        path = Path(senteval_data).expanduser()
        if not path.is_dir():
            raise InputError(
                f"--senteval-data {senteval_data}: not a folder (SentEval's data folder, with downstream/)."
            )
        yield str(path.resolve()) + os.sep
        return
    from mteb_evalrank.data.resolution import SOURCES_ENV

    sources = os.environ.get(SOURCES_ENV)
    if not sources:
        raise InputError(
            f"where is SentEval's data? Give --senteval-data (SentEval's data folder, with downstream/) or set "
            f"{SOURCES_ENV} to the plugin's raw sources."
        )
    root = Path(sources).expanduser().resolve()
    with scratch_folder(prefix="mteb-evalrank-senteval-") as tmp:
        linked = 0
        for link, target in _VIEW.items():
            if (root / target).exists():
                (Path(tmp) / link).parent.mkdir(parents=True, exist_ok=True)
                os.symlink(root / target, Path(tmp) / link)
                linked += 1
        if not linked:
            raise InputError(f"{SOURCES_ENV}={sources} holds neither senteval_downstream/ nor sts_senteval/.")
        yield str(tmp) + os.sep


# --- run ------------------------------------------------------------------------------------------
def to_jsonable(value: Any) -> Any:
    """SentEval's result dict as JSON would hold it: numpy scalars -> numbers, tuples and scipy results
    -> lists, arrays -> lists (``yhat`` is dropped)."""
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items() if k != "yhat"}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "statistic") and hasattr(value, "pvalue"):  # scipy result objects
        return [to_jsonable(value.statistic), to_jsonable(value.pvalue)]
    return value


def _eval_one(se: Any, name: str) -> Any:
    """``se.eval(name)``; an error inside SentEval becomes one line naming the task."""
    from mteb_evalrank.errors import EvalRankError

    try:
        return se.eval(name)
    except EvalRankError:
        raise
    except Exception as exc:
        hint = ""
        if "CUDA" in str(exc):
            hint = (
                " (SentEval's PyTorch classifier runs on a GPU only; on a CPU use its scikit-learn path: "
                "--senteval-params '{\"usepytorch\": false}')"
            )
        elif "inhomogeneous" in str(exc):
            hint = (
                " (SentEval's original STS loader builds ragged numpy arrays, which numpy >= 1.24 rejects; "
                "the EvalRank toolkit's copy of senteval loads them with dtype=object)"
            )
        raise EvalRankError(f"SentEval's engine failed on {name}: {type(exc).__name__}: {exc}{hint}") from exc


def run_senteval(
    model_spec: Any,
    tasks: Sequence[str],
    *,
    output_folder: Path | str,
    senteval_data: Path | str | None = None,
    params: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    device: str | None = None,
    stop_words: Any = None,
    strip_punctuation: bool = False,
    model_revision: str | None = None,
    save_json: Path | str | None = None,
):
    """Run SentEval's engine on ``tasks`` (SentEval names, or the plugin's names) and import the result.

    Returns ``(ImportReport, raw_results)``.  ``params`` are added to :data:`EVALRANK_PROTOTYPING`
    (``classifier`` replaced as a whole); ``task_path`` comes from :func:`senteval_task_path`.
    """
    from mteb_evalrank.data.files import atomic_write_text, output_file
    from mteb_evalrank.integration.model_specs import load_any_model
    from mteb_evalrank.integration.result_cache import open_result_cache
    from mteb_evalrank.integration.senteval_import import import_senteval_results, plugin_task, senteval_task

    specs = [senteval_task(t) for t in tasks]  # unknown names fail before anything loads or runs
    if not specs:
        raise InputError("no SentEval task given.")
    for spec in specs:
        plugin_task(spec)  # the results must have somewhere to go
    names = [spec.senteval_name for spec in specs]
    open_result_cache(output_folder)  # a folder that cannot be written fails now, not after the engine ran
    if save_json is not None:
        output_file(Path(save_json), what="SentEval results file")
    engine = import_senteval_engine()
    model = load_any_model(
        model_spec, device=device, revision=model_revision, stop_words=stop_words, strip_punctuation=strip_punctuation
    )
    meta = model.mteb_model_meta
    meta = meta.model_copy(update={"experiment_kwargs": {**(meta.experiment_kwargs or {}), **EXPERIMENT}})
    encode_kwargs = {"batch_size": batch_size} if batch_size else {}
    adapter = MtebBatcher(model, encode_kwargs=encode_kwargs)
    se_params = copy.deepcopy(EVALRANK_PROTOTYPING)
    se_params.update(copy.deepcopy(dict(params or {})))
    with senteval_task_path(senteval_data) as task_path, _getargspec_shim():
        se_params["task_path"] = task_path
        se = engine.SE(se_params, adapter.batcher, adapter.prepare)
        raw = {name: _eval_one(se, name) for name in dict.fromkeys(names)}  # what se.eval(list) does
    results = to_jsonable(raw)
    if not isinstance(results, dict):
        raise InputError(f"SentEval's engine returned a {type(raw).__name__}, not a dict of task results.")
    if save_json is not None:
        import json

        out = output_file(Path(save_json), what="SentEval results file")
        atomic_write_text(out, json.dumps(results, indent=1) + "\n")
    report = import_senteval_results(
        results,
        model_meta=meta,
        output_folder=output_folder,
        source="SentEval engine run (mteb-evalrank senteval)",
        toolkit_str=False,  # this batcher encodes STR's strings as they are
    )
    return report, results
