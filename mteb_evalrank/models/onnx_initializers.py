"""The initializers of an ONNX file, read without onnx or onnxruntime: a minimal protobuf reader of
``ModelProto.graph.initializer`` (the word level takes an ONNX model's word-piece table from it)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from mteb_evalrank.errors import InputError

_ONNX_DTYPES = {1: np.float32, 3: np.int8, 2: np.uint8, 10: np.float16, 11: np.float64}


def _varint(buf: memoryview, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf: memoryview, start: int, end: int) -> Iterable[tuple[int, int, int, int]]:
    """``(field, wire type, value or start, end)`` of one protobuf message."""
    pos = start
    while pos < end:
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            yield num, wire, value, pos
        elif wire == 1:
            yield num, wire, pos, pos + 8
            pos += 8
        elif wire == 5:
            yield num, wire, pos, pos + 4
            pos += 4
        elif wire == 2:
            n, pos = _varint(buf, pos)
            yield num, wire, pos, pos + n
            pos += n
        else:
            raise InputError(f"ONNX file: unsupported protobuf wire type {wire}.")


def onnx_initializer(path: str | Path, name: str) -> np.ndarray:
    """The initializer ``name`` of an ONNX file as float32; an int8 tensor ``<x>_q`` is dequantised
    with its per-row ``<x>_scale`` (weight-only quantisation, zero point 0)."""
    buf = memoryview(Path(path).read_bytes())
    tensors: dict[str, tuple[list[int], int, tuple[int, int]]] = {}
    for num, wire, a, b in _fields(buf, 0, len(buf)):
        if num != 7 or wire != 2:  # ModelProto.graph
            continue
        for gnum, gwire, ga, gb in _fields(buf, a, b):
            if gnum != 5 or gwire != 2:  # GraphProto.initializer
                continue
            dims: list[int] = []
            dtype, tname, raw = None, None, None
            for tnum, twire, ta, tb in _fields(buf, ga, gb):
                if tnum == 1 and twire == 0:
                    dims.append(ta)
                elif tnum == 1 and twire == 2:
                    p = ta
                    while p < tb:
                        v, p = _varint(buf, p)
                        dims.append(v)
                elif tnum == 2:
                    dtype = ta
                elif tnum == 8:
                    tname = bytes(buf[ta:tb]).decode()
                elif tnum == 9:
                    raw = (ta, tb)
            if tname is not None and raw is not None and dtype in _ONNX_DTYPES:
                tensors[tname] = (dims, dtype, raw)
    if name not in tensors:
        raise InputError(f"{path}: no initializer {name!r} with raw data.")

    def array(key: str) -> np.ndarray:
        dims, dtype, (a, b) = tensors[key]
        return np.frombuffer(bytes(buf[a:b]), dtype=_ONNX_DTYPES[dtype]).reshape(dims)

    out = array(name)
    if out.dtype == np.int8 and name.endswith("_q") and name[:-2] + "_scale" in tensors:
        return (out.astype(np.float32) * array(name[:-2] + "_scale").astype(np.float32)).astype(np.float32)
    return out.astype(np.float32)
