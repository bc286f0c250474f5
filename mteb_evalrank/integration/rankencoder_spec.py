"""``rankencoder:<base>?corpus=<file>&weight=<λ>`` — RankEncoder by name for ``mteb run -m`` / ``mteb.get_model``.

``<base>`` is any model spec ``mteb.get_model`` resolves (an MTEB name, ``zoo:…``, ``glove-6b-50d``, a
folder); ``corpus`` a UTF-8 text file with one sentence per line (blank lines ignored); ``weight`` λ of
Eq. 7 (default 0.1); ``overlap=keep`` accepts inputs that are also corpus sentences.  The corpus is
encoded once per base model, revision and corpus through the plugin's embedding cache
(:mod:`mteb_evalrank.data.embedding_cache`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from mteb_evalrank.errors import InputError

PREFIX = "rankencoder:"


def is_rankencoder_spec(spec: Any) -> bool:
    return isinstance(spec, str) and spec.strip().startswith(PREFIX)


def parse_spec(spec: str) -> tuple[str, Path, float, str]:
    """``(base spec, corpus file, λ, on_overlap)``."""
    body = spec.strip()[len(PREFIX) :]
    base, _, query = body.partition("?")
    given = parse_qs(query, keep_blank_values=True)
    twice = next((k for k, v in given.items() if len(v) > 1), None)
    if twice is not None:  # one value per option: the last one was silently kept
        raise InputError(f"{spec!r}: option {twice!r} is given {len(given[twice])} times; give it once.")
    params = {k: v[0] for k, v in given.items()}
    unknown = set(params) - {"corpus", "weight", "overlap"}
    if not base:
        raise InputError(f"{spec!r}: no base model (expected rankencoder:BASE?corpus=FILE&weight=0.1).")
    if unknown:
        raise InputError(f"{spec!r}: unknown option(s) {', '.join(sorted(unknown))}; known: corpus, weight, overlap.")
    if not params.get("corpus"):
        raise InputError(f"{spec!r}: give the rank corpus as ?corpus=FILE (one sentence per line).")
    try:
        weight = float(params.get("weight", "0.1"))
    except ValueError:
        raise InputError(f"{spec!r}: weight must be a number in [0, 1], got {params['weight']!r}.") from None
    overlap = {"keep": "keep", "error": "error"}.get(params.get("overlap", "error"))
    if overlap is None:
        raise InputError(f"{spec!r}: overlap must be 'keep' or 'error'.")
    return base, Path(params["corpus"]).expanduser(), weight, overlap


def load_rankencoder(spec: str, *, device: str | None = None):
    """The RankEncoder a ``rankencoder:`` spec names (corpus embeddings cached on disk)."""
    import mteb

    from mteb_evalrank.data.embedding_cache import corpus_fingerprint, encode_corpus
    from mteb_evalrank.data.files import read_lines
    from mteb_evalrank.models.rank_encoder import RankEncoder

    base_spec, corpus_file, weight, overlap = parse_spec(spec)
    corpus = [line.strip() for line in read_lines(corpus_file, what="RankEncoder corpus") if line.strip()]
    base = mteb.get_model(base_spec, device=device) if device else mteb.get_model(base_spec)

    def encode(texts: list[str]):
        meta = _CorpusMetadata()
        return encode_corpus(base, texts, task_metadata=meta, fingerprint=corpus_fingerprint(texts))

    return RankEncoder(base, corpus, weight=weight, corpus_encoder=encode, on_overlap=overlap)


class _CorpusMetadata:
    """What encoders read of a task's metadata, for the RankEncoder corpus."""

    name = "RankEncoderCorpus"
    modalities = ["text"]
    type = "STS"
    prompt = None

    def get_modalities(self, prompt_type: Any = None) -> list[str]:
        return ["text"]
