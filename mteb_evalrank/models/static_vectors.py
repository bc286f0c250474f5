"""Static word vectors (GloVe, word2vec, fastText) as bag-of-words MTEB encoders.

Behaviour follows the EvalRank reference toolkit (``Word_embedding_model`` and the BOW sentence
encoder):

- the vocabulary is lowercased when loaded; when two entries collide after lowercasing, the first
  one in the file wins (the reference does the same), and the vocabulary mean is taken over the
  entries kept;
- a sentence is lowercased and split on whitespace; its embedding is the mean of the vectors of its
  in-vocabulary tokens; a sentence with none gets a zero vector + 1e-9;
- for word-level evaluation (a task whose class declares ``input_level = "word"``, see
  :func:`task_input_level`) each input is looked up as a whole (lowercased, surrounding whitespace
  stripped) and an out-of-vocabulary word gets the mean
  vector of the vocabulary.  Stop words are not applied at word level.  The word-similarity tasks
  also read the vocabulary itself (:func:`word_vocabulary_of`): its centring mean and which words are
  out of vocabulary (see :mod:`mteb_evalrank.metrics.word_similarity`).

Unlike the reference, which silently skips lines with fewer than 25 fields, files are validated
strictly: a malformed line raises :class:`~mteb_evalrank.errors.SourceFormatError` naming the file
and the line.

**Stop words.**  ``stop_words=None`` (default) averages every token, as the EvalRank reference does.
``stop_words="sbert"`` drops the English stop-word list of sentence-transformers' word tokenizers
(386 entries: punctuation and function words, *including "not", "no", "nor", "never"*), and
``strip_punctuation=True`` adds that tokenizer's fallback of stripping punctuation from tokens not
found as they are.  Both together reproduce sentence-transformers' ``average_word_embeddings_glove``
models.  The HEROS paper's GloVe numbers (negation ≈ 0.99) match such a tokenizer that drops "not":
a sentence and its negation then have nearly the same bag of words.  Plain averaging gives different
(lower) negation scores.  The choice is recorded in the model meta's ``experiment_kwargs``, so MTEB
files results of each choice in their own folder (``<name>/<revision>/<experiment>/``).

Supported formats (see :func:`load_word_vectors`): text (``word v1 ... vD`` per line, optional
word2vec header ``N D``, optionally gzip-compressed), and a ``.npy`` matrix with a vocabulary
(``.txt`` one word per line, or ``.parquet`` with one string column).  ``.npy`` files are
memory-mapped.  The file readers and parsers are :mod:`mteb_evalrank.models.word_vector_files`; this module
holds the vectors (:class:`WordVectors`), the stop-word presets and the bag-of-words encoder.
"""

from __future__ import annotations

import json
import os
import string
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models.abs_encoder import AbsEncoder
from mteb.models.model_meta import ModelMeta, ScoringFunction

from mteb_evalrank import mteb_internals
from mteb_evalrank.errors import EvalRankWarning, InputError
from mteb_evalrank.hashing import files_sha256
from mteb_evalrank.metrics.unit_rows import NO_WORDS_FILL
from mteb_evalrank.models.word_vector_files import TEXT_SUFFIXES, read_npy_vectors, read_text_vectors, split_matrix_spec
from mteb_evalrank.names import name_key

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import PromptType

#: Value added to the zero vector of a sentence without any in-vocabulary token (reference: 1e-9); N2O's
#: neighbour search knows it (:data:`mteb_evalrank.metrics.unit_rows.NO_WORDS_FILL`) and refuses such rows.
EMPTY_SENTENCE_VALUE = NO_WORDS_FILL

# sentence-transformers' ENGLISH_STOP_WORDS (Apache-2.0), copied into a data file so that using it does not
# import transformers
_SBERT_ENGLISH_STOP_WORDS = frozenset(
    json.loads((Path(__file__).with_name("sbert_stop_words.json")).read_text(encoding="utf-8"))["words"]
)

#: Named stop-word presets accepted by ``stop_words=``.
STOP_WORD_PRESETS: dict[str, frozenset[str]] = {
    "sbert": _SBERT_ENGLISH_STOP_WORDS,
    "sentence-transformers": _SBERT_ENGLISH_STOP_WORDS,
}


# --- stop words --------------------------------------------------------------------------------
def resolve_stop_words(stop_words: str | Iterable[str] | None) -> tuple[frozenset[str], Any]:
    """Return ``(set, label)`` for a stop-word option.

    ``label`` is what goes into ``experiment_kwargs``: the preset name, the sorted word list for a
    custom set (MTEB hashes long values into the folder name), or ``None`` for no stop words.
    """
    if stop_words is None:
        return frozenset(), None
    if isinstance(stop_words, str):
        key = stop_words.strip().lower()
        if key in STOP_WORD_PRESETS:
            return STOP_WORD_PRESETS[key], "sbert"
        raise InputError(
            f"unknown stop-word preset {stop_words!r}; use one of {sorted(STOP_WORD_PRESETS)}, a set of words, or None"
        )
    words = frozenset(str(w).lower() for w in stop_words)
    if not words:
        return frozenset(), None
    if words == _SBERT_ENGLISH_STOP_WORDS:
        return words, "sbert"
    return words, sorted(words)


# --- hashing -----------------------------------------------------------------------------------
# --- loading -----------------------------------------------------------------------------------
@dataclass
class WordVectors:
    """A vector matrix with its vocabulary (rows aligned with ``words``)."""

    matrix: np.ndarray  # (n, d) float32, possibly memory-mapped
    words: list[str]
    sources: tuple[Path, ...] = ()
    lowercase: bool = True
    word2id: dict[str, int] = field(init=False, repr=False)
    mean_vector: np.ndarray = field(init=False, repr=False)
    _statistics: dict[bool, Any] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.matrix.ndim != 2:
            raise InputError(f"word vectors must be a 2-D matrix, got shape {self.matrix.shape}")
        if len(self.words) != self.matrix.shape[0]:
            raise InputError(f"vocabulary has {len(self.words)} words but the matrix has {self.matrix.shape[0]} rows")
        if self.matrix.shape[0] == 0:
            raise InputError("no word vectors (empty vocabulary)")
        word2id: dict[str, int] = {}
        twins: list[tuple[int, int]] = []  # one word spelled two ways (NFC, NFD): merged like a repeated word
        lower = self.lowercase
        for i, w in enumerate(self.words):
            raw = w.lower() if lower else w
            key = raw if raw.isascii() else name_key(raw, casefold=False)
            if key not in word2id:  # first occurrence wins, as in the reference toolkit
                word2id[key] = i
            else:
                first = self.words[word2id[key]]
                # one key, two spellings (after lowercasing, or before it: the Angstrom sign and Å lowercase alike):
                # twins, not a repeated word
                if (first.lower() if lower else first) != raw or (
                    first != w and name_key(first, casefold=False) == name_key(w, casefold=False)
                ):
                    twins.append((word2id[key], i))
        self.word2id = word2id
        if self.sources:
            _warn_twin_words(self.words, twins, self.sources[-1] if len(self.sources) > 1 else self.sources[0])
            _warn_duplicate_words(self.words, self.sources[-1] if len(self.sources) > 1 else self.sources[0])
        matrix = np.asarray(self.matrix)
        if len(word2id) == matrix.shape[0]:
            self.mean_vector = matrix.mean(axis=0, dtype=np.float32)
        else:
            rows = np.fromiter(word2id.values(), dtype=np.int64, count=len(word2id))
            self.mean_vector = matrix[np.sort(rows)].mean(axis=0, dtype=np.float32)

    def key(self, word: str) -> str:
        """The key of ``word`` in :attr:`word2id`: lowercased (with :attr:`lowercase`) and in Unicode NFC, so that
        ``café`` finds its vector whether it is spelled with one code point or with a combining accent
        (:func:`mteb_evalrank.names.name_key`)."""
        return name_key(word.lower() if self.lowercase else word, casefold=False)

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return len(self.word2id)

    def vector(self, word: str) -> np.ndarray | None:
        i = self.word2id.get(self.key(word))
        return None if i is None else np.asarray(self.matrix[i], dtype=np.float32)

    def lookup(self, word: str) -> int | None:
        """Row of a word as word-level evaluation looks it up (stripped, lowercased), or ``None`` if OOV."""
        return self.word2id.get(self.key(word.strip()))

    def oov_mask(self, words: Sequence[str]) -> np.ndarray:
        """``True`` for each word that :meth:`lookup` does not find."""
        return np.fromiter((self.lookup(w) is None for w in words), dtype=bool, count=len(words))

    def kept_rows(self) -> np.ndarray | None:
        """Rows of the entries kept (first of each lowercased word); ``None`` when every row is kept."""
        if len(self.word2id) == self.matrix.shape[0]:
            return None
        return np.sort(np.fromiter(self.word2id.values(), dtype=np.int64, count=len(self.word2id)))

    def similarity_statistics(self, center: bool = True):
        """Centring mean and OOV vectors over the kept entries, as the EvalRank toolkit's word-similarity
        evaluation uses them (:func:`mteb_evalrank.metrics.word_similarity.vocabulary_statistics`; cached)."""
        from mteb_evalrank.metrics.word_similarity import vocabulary_statistics

        key = bool(center)
        if key not in self._statistics:
            rows = self.kept_rows()
            matrix = self.matrix if rows is None else np.asarray(self.matrix)[rows]
            self._statistics[key] = vocabulary_statistics(matrix, center=key)
        return self._statistics[key]

    def mapped(self, transform: Any) -> WordVectors:
        """The same vocabulary with ``transform(matrix)`` as vectors (e.g. a fitted post-processing)."""
        matrix = np.asarray(transform(np.asarray(self.matrix, dtype=np.float32)), dtype=np.float32)
        return WordVectors(matrix, self.words, sources=(), lowercase=self.lowercase)


def _warn_twin_words(words: Sequence[str], twins: list[tuple[int, int]], source: Path) -> None:
    """One warning when entries are one word spelled two ways under Unicode normalisation (``café`` as NFC and as
    NFD, :func:`~mteb_evalrank.names.name_key`): like a word repeated, only the first vector is used, and a text
    finds it in either spelling (before, both were kept, and which one a text found depended on its spelling)."""
    if not twins:
        return
    from mteb_evalrank.names import spelled

    first, again = twins[0]
    more = f" (and {len(twins) - 1:,} more)" if len(twins) > 1 else ""
    warnings.warn(
        EvalRankWarning(
            f"{source}: {spelled(words[first])} and {spelled(words[again])} (vectors {first + 1:,} and {again + 1:,}, "
            f"counted from 1 without a header line) are one word spelled two ways under Unicode normalisation "
            f"(NFC){more}; the first vector of each is used, for either spelling."
        ),
        stacklevel=4,
    )


def _warn_duplicate_words(words: Sequence[str], source: Path) -> None:
    """One warning when the same word has several lines (rows) in a vector file: only its first vector
    is used.  (Words that differ only in case are not counted: a cased file has those on purpose.)"""
    if len(set(words)) == len(words):
        return
    seen: set[str] = set()
    repeated: dict[str, int] = {}
    for w in words:
        if w in seen:
            repeated[w] = repeated.get(w, 1) + 1
        else:
            seen.add(w)
    extra = sum(repeated.values()) - len(repeated)
    examples = ", ".join(repr(w) for w in list(repeated)[:3]) + (", ..." if len(repeated) > 3 else "")
    warnings.warn(
        EvalRankWarning(
            f"{source}: {len(repeated):,} word(s) occur more than once ({examples}); the first vector of each is "
            f"used and {extra:,} later row(s) are ignored."
        ),
        stacklevel=4,
    )


def load_word_vectors(
    path: str | os.PathLike,
    vocab_path: str | os.PathLike | None = None,
    *,
    lowercase: bool = True,
    show_progress: bool | None = None,
) -> WordVectors:
    """Load word vectors from a text file (``.txt``/``.vec``/``.gz``) or a ``.npy`` matrix + vocabulary.

    ``path`` may also be ``'matrix.npy:vocab.txt'``.  For ``.npy`` without ``vocab_path`` the
    vocabulary is looked up next to the matrix (see :func:`find_vocabulary_for`).
    """
    p, spec_vocab = split_matrix_spec(path)
    vocab_path = vocab_path if vocab_path is not None else spec_vocab
    if p.suffix.lower() == ".bin":
        raise InputError(
            f"{p}: binary word2vec files are not supported; convert to text "
            "(gensim: KeyedVectors.load_word2vec_format(path, binary=True).save_word2vec_format(out))"
        )
    if p.suffix.lower() == ".npy":
        matrix, words, vp = read_npy_vectors(p, vocab_path)
        return WordVectors(matrix, words, sources=(p.resolve(), Path(vp).resolve()), lowercase=lowercase)
    if vocab_path is not None:
        raise InputError(f"{p}: a separate vocabulary is only used with a .npy matrix")
    matrix, words = read_text_vectors(p, show_progress=show_progress)
    return WordVectors(matrix, words, sources=(p.resolve(),), lowercase=lowercase)


def default_model_name(path: str | os.PathLike) -> str:
    """``local/<file name without vector suffixes>`` for a vectors file."""
    p, _ = split_matrix_spec(path)
    name = p.name
    for suffix in (".gz", *TEXT_SUFFIXES, ".npy"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    name = name.replace(" ", "_") or "word-vectors"
    return f"local/{name}"


# --- the encoder -------------------------------------------------------------------------------
def task_input_level(task_metadata: Any) -> str:
    """What one input text of a task is, ``"word"`` or ``"sentence"``, as the task class declares it
    (``input_level`` of :class:`mteb_evalrank.tasks._base.EncodeOnceTask`; the one place it is said).

    The plugin's task metadata carries it (``PluginTaskMetadata.input_level``); for any other metadata (a copy,
    a stand-in with only a ``name``) the task class registered in MTEB under that name is asked.  A task that
    declares nothing (MTEB's own tasks), an unknown name or no metadata is ``"sentence"``."""
    level = getattr(task_metadata, "input_level", None)
    if isinstance(level, str):
        return level
    name = getattr(task_metadata, "name", None)
    if not isinstance(name, str):
        return "sentence"

    registry = mteb_internals.task_registry()  # importing mteb registers the plugin
    level = getattr(registry.get(name), "input_level", None)
    return level if isinstance(level, str) else "sentence"


def _iter_texts(inputs: Any) -> Iterator[str]:
    """Texts from an MTEB DataLoader (batches of dicts with a "text" list) or a plain list."""
    if isinstance(inputs, str):
        raise InputError("encode() expects a DataLoader or a list of texts, not a single string")
    for item in inputs:
        if isinstance(item, str):
            yield item
        elif isinstance(item, Mapping):
            if "text" not in item:
                raise InputError(f"StaticWordVectorEncoder encodes text only; batch has keys {sorted(item)}")
            texts = item["text"]
            if isinstance(texts, str):
                yield texts
            else:
                yield from texts
        else:
            raise InputError(f"cannot encode an input of type {type(item).__name__}")


class StaticWordVectorEncoder(AbsEncoder):
    """Bag-of-words encoder over static word vectors (an MTEB ``EncoderProtocol``).

    Args:
        vectors: loaded :class:`WordVectors` (see :func:`load_word_vectors` / :meth:`from_file`).
        name: MTEB model name (``org/name``); default derived from the file name (``local/<stem>``).
        revision: default: a short content hash of the vectors file(s).
        stop_words: ``None`` (plain averaging, the EvalRank reference), ``"sbert"`` (the English
            stop words of sentence-transformers' word tokenizers, which include "not"), or a set.
        strip_punctuation: also try each token with punctuation stripped, as sentence-transformers'
            ``WhitespaceTokenizer`` does (default ``False``, as in the EvalRank reference).
        word_level: force word-level (``True``) or sentence-level (``False``) encoding; default
            ``None`` decides by the task's declared input level (:func:`task_input_level`).
        meta_overrides: extra ModelMeta fields (license, reference, citation, ...).
    """

    mteb_model_meta: ModelMeta  # set in __init__ (AbsEncoder declares it Optional)

    def __init__(
        self,
        vectors: WordVectors,
        *,
        name: str | None = None,
        revision: str | None = None,
        stop_words: str | Iterable[str] | None = None,
        strip_punctuation: bool = False,
        word_level: bool | None = None,
        meta_overrides: Mapping[str, Any] | None = None,
        loader_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        self.vectors = vectors
        self.model = vectors
        self.stop_words, stop_label = resolve_stop_words(stop_words)
        self.strip_punctuation = bool(strip_punctuation)
        self.word_level = word_level
        if name is None:
            name = default_model_name(vectors.sources[0]) if vectors.sources else "local/word-vectors"
        if "/" not in name:
            name = f"local/{name}"
        if revision is None:
            revision = files_sha256(vectors.sources, length=12) if vectors.sources else "no_revision_available"
        experiment: dict[str, Any] = {}
        if stop_label is not None:
            experiment["stop_words"] = stop_label
        if self.strip_punctuation:
            experiment["strip_punctuation"] = True
        n, d = vectors.matrix.shape
        fields: dict[str, Any] = dict(
            loader=static_word_vectors_loader if vectors.sources else None,
            loader_kwargs=dict(loader_kwargs or self._default_loader_kwargs()),
            name=name,
            revision=revision,
            release_date=None,
            languages=None,
            n_parameters=int(n * d),
            n_embedding_parameters=int(n * d),
            memory_usage_mb=round(n * d * 4 / 2**20, 1),
            max_tokens=None,
            embed_dim=int(d),
            license=None,
            open_weights=True,
            public_training_code=None,
            public_training_data=None,
            framework=["NumPy"],
            similarity_fn_name=ScoringFunction.COSINE,
            use_instructions=False,
            training_datasets=None,
            experiment_kwargs=experiment or None,
        )
        fields.update(meta_overrides or {})
        self.mteb_model_meta = ModelMeta(**fields)

    def _default_loader_kwargs(self) -> dict[str, Any]:
        src = self.vectors.sources
        if not src:
            return {}
        kw: dict[str, Any] = {"vectors_path": str(src[0])}
        if len(src) > 1:
            kw["vocab_path"] = str(src[1])
        if not self.vectors.lowercase:
            kw["lowercase"] = False
        return kw

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike,
        vocab_path: str | os.PathLike | None = None,
        *,
        name: str | None = None,
        revision: str | None = None,
        stop_words: str | Iterable[str] | None = None,
        strip_punctuation: bool = False,
        lowercase: bool = True,
        word_level: bool | None = None,
        show_progress: bool | None = None,
        meta_overrides: Mapping[str, Any] | None = None,
    ) -> StaticWordVectorEncoder:
        """Load a vectors file (see :func:`load_word_vectors`) and wrap it."""
        vectors = load_word_vectors(path, vocab_path, lowercase=lowercase, show_progress=show_progress)
        return cls(
            vectors,
            name=name or default_model_name(path),
            revision=revision,
            stop_words=stop_words,
            strip_punctuation=strip_punctuation,
            word_level=word_level,
            meta_overrides=meta_overrides,
        )

    # -- encoding -------------------------------------------------------------------------------
    def is_word_level(self, task_metadata: TaskMetadata | None) -> bool:
        if self.word_level is not None:
            return self.word_level
        return task_input_level(task_metadata) == "word"

    def _token_ids(self, text: str) -> list[int]:
        w2i = self.vectors.word2id
        stop = self.stop_words
        ids: list[int] = []
        key = self.vectors.key
        for tok in text.lower().split():
            if tok in stop:
                continue
            i = w2i.get(tok if tok.isascii() else key(tok))
            if i is None and self.strip_punctuation:
                tok = tok.strip(string.punctuation)
                if not tok or tok in stop:
                    continue
                i = w2i.get(tok if tok.isascii() else key(tok))
            if i is not None:
                ids.append(i)
        return ids

    def encode_sentences(self, texts: Sequence[str]) -> np.ndarray:
        """Bag-of-words sentence embeddings: mean of in-vocabulary token vectors (1e-9 if none)."""
        m = self.vectors.matrix
        out = np.empty((len(texts), self.vectors.dim), dtype=np.float32)
        for k, text in enumerate(texts):
            ids = self._token_ids(text)
            if ids:
                out[k] = np.asarray(m[ids], dtype=np.float32).mean(axis=0)
            else:
                out[k] = EMPTY_SENTENCE_VALUE
        return out

    def encode_words(self, words: Sequence[str]) -> np.ndarray:
        """Word embeddings: the word's vector, or the vocabulary mean if out of vocabulary."""
        m = self.vectors.matrix
        out = np.empty((len(words), self.vectors.dim), dtype=np.float32)
        for k, word in enumerate(words):
            i = self.vectors.lookup(word)
            out[k] = self.vectors.mean_vector if i is None else m[i]
        return out

    def word_vocabulary(self) -> WordVectors:
        """The vocabulary behind :meth:`encode_words` (see :func:`word_vocabulary_of`)."""
        return self.vectors

    def encode(
        self,
        inputs: Any,
        *,
        task_metadata: TaskMetadata | None = None,
        hf_split: str | None = None,
        hf_subset: str | None = None,
        prompt_type: PromptType | None = None,
        **kwargs: Any,
    ) -> np.ndarray:
        """Encode the texts of an MTEB DataLoader (or a list of strings): ``(n, d)`` float32."""
        texts = list(_iter_texts(inputs))
        if self.is_word_level(task_metadata):
            return self.encode_words(texts)
        return self.encode_sentences(texts)

    def coverage(self, texts: Iterable[str]) -> float:
        """Share of whitespace tokens (after lowercasing and stop words) found in the vocabulary."""
        total = found = 0
        for text in texts:
            toks = [t for t in text.lower().split() if t not in self.stop_words]
            total += len(toks)
            found += len(self._token_ids(text))
        return found / total if total else 0.0

    def __repr__(self) -> str:
        meta = self.mteb_model_meta
        return (
            f"StaticWordVectorEncoder({meta.name!r}, revision={meta.revision!r}, "
            f"vocab={len(self.vectors)}, dim={self.vectors.dim}, experiment={meta.experiment_name!r})"
        )


def word_vocabulary_of(model: Any) -> WordVectors | None:
    """The word vectors behind a word-level encoder, or ``None`` for a model without a vocabulary.

    A model has a vocabulary when it offers ``word_vocabulary()`` (:class:`StaticWordVectorEncoder`,
    the zoo's static variants) returning :class:`WordVectors` whose rows are exactly what the model's
    word-level ``encode`` returns for in-vocabulary words.  MTEB's ``CachedEmbeddingWrapper`` passes
    its inner model's vocabulary through; any other wrapper hides it (it may transform the vectors).
    """
    from mteb.models.cache_wrappers.cache_wrapper import CachedEmbeddingWrapper

    for _ in range(8):
        method = getattr(type(model), "word_vocabulary", None)
        if callable(method):
            vocabulary = model.word_vocabulary()
            return vocabulary if isinstance(vocabulary, WordVectors) else None
        if isinstance(model, CachedEmbeddingWrapper):
            model = model._model
            continue
        return None
    return None


def static_word_vectors_loader(
    model_name: str,
    revision: str | None = None,
    *,
    vectors_path: str,
    vocab_path: str | None = None,
    stop_words: str | Iterable[str] | None = None,
    strip_punctuation: bool = False,
    lowercase: bool = True,
    device: str | None = None,
    **kwargs: Any,
) -> StaticWordVectorEncoder:
    """MTEB ``ModelMeta.loader`` for static vectors (so ``meta.load_model()`` rebuilds the encoder)."""
    if kwargs:
        raise InputError(f"unexpected options for a word-vector model: {sorted(kwargs)}")
    enc = StaticWordVectorEncoder.from_file(
        vectors_path,
        vocab_path,
        name=model_name,
        stop_words=stop_words,
        strip_punctuation=strip_punctuation,
        lowercase=lowercase,
    )
    if revision and revision != enc.mteb_model_meta.revision:
        raise InputError(
            f"{vectors_path}: content hash {enc.mteb_model_meta.revision} differs from the requested "
            f"revision {revision}"
        )
    return enc
