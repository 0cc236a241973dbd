"""Code fingerprints as Dolos makes them: normalised tokens, k-grams, winnowing.

1. **Tokens.** Python's own tokenizer (``tokenize``). Every name that is not a keyword becomes
   ``N``, every string ``S``, every number ``0``; keywords, operators, ``NEWLINE``, ``INDENT``
   and ``DEDENT`` stay as they are; comments and blank lines are dropped. Renaming variables,
   changing literals or comments therefore changes no token. A notebook (``.ipynb``) is its code
   cells, in order, without IPython magics and shell lines (``%...``, ``!...``). Source the
   tokenizer rejects part-way keeps the tokens read up to the error.
2. **k-grams.** Every run of ``k`` consecutive tokens (Dolos's default, and MLE-bench's, is
   k = 23) is hashed: a polynomial hash of 64-bit token hashes, then a 64-bit mix.
3. **Winnowing** (Schleimer, Wilkerson and Aiken, 2003). In every window of ``window``
   consecutive k-gram hashes (Dolos's default: 17) the rightmost minimum is selected; a
   position selected by several windows counts once. The first windows are the prefixes of the
   file, as in Dolos, so a file shorter than one window still has fingerprints. Any shared run
   of ``window + k - 1`` tokens yields a shared fingerprint.

A file's fingerprints are the selected hashes in file order, with repeats: Dolos counts a
fingerprint once per position it is selected at (see ``plagiarism.similarity``).
"""

from __future__ import annotations

import hashlib
import io
import json
import keyword
import tokenize
from functools import cache
from pathlib import Path

import numpy as np

from tools.keep import NotTaken, read_regular_file

K = 23
WINDOW = 17
TOKENIZER_VERSION = 1
"""Bump when the tokens change: cached fingerprints of another version are not reused."""

_KEPT = {tokenize.NEWLINE: "NEWLINE", tokenize.INDENT: "INDENT", tokenize.DEDENT: "DEDENT"}
_DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
_BASE = np.uint64(0x100000001B3)
_MAX = np.uint64(2**64 - 1)


def tokens(source: str) -> list[str]:
    """The normalised tokens of Python source."""
    out: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in _DROPPED:
                continue
            if tok.type == tokenize.NAME:
                out.append(tok.string if keyword.iskeyword(tok.string) else "N")
            elif tok.type == tokenize.STRING:
                out.append("S")
            elif tok.type == tokenize.NUMBER:
                out.append("0")
            else:
                out.append(_KEPT.get(tok.type, tok.string))
    except (tokenize.TokenError, SyntaxError):
        pass  # keep what was read before the error
    return out


def notebook_source(text: str) -> str:
    """The code cells of a notebook's JSON, magics and shell lines dropped (ValueError if it is
    not a notebook)."""
    try:
        cells = json.loads(text).get("cells")
    except (json.JSONDecodeError, AttributeError):
        raise ValueError("not a Jupyter notebook (no JSON object with cells)") from None
    if not isinstance(cells, list):
        raise ValueError("not a Jupyter notebook (no cells)")
    parts = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source") or ""
        source = "".join(source) if isinstance(source, list) else str(source)
        lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


MAX_SOURCE_BYTES = 16 * 2**20
"""Largest script or notebook read."""


def read_source(path: Path) -> str:
    """The Python source of a ``.py`` file or the code of an ``.ipynb`` notebook, read by
    descriptor: a link is not followed and only a regular file of at most
    ``MAX_SOURCE_BYTES`` is read (``ValueError`` otherwise, with the reason)."""
    try:
        data = read_regular_file(Path(path), MAX_SOURCE_BYTES)
    except NotTaken as exc:
        raise ValueError(str(exc)) from None
    return source_text(data, Path(path))


def source_text(data: bytes, path: Path) -> str:
    """The source in ``data``, the bytes of the file ``path`` (a notebook's code cells)."""
    text = data.decode("utf-8", errors="replace")
    return notebook_source(text) if path.suffix == ".ipynb" else text


@cache
def _token_hash(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: spreads the hashes so that each window's minimum is a fair pick."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def kgram_hashes(toks: list[str], k: int = K) -> np.ndarray:
    """One 64-bit hash per k-gram (empty when there are fewer than ``k`` tokens)."""
    n = len(toks) - k + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint64)
    codes = np.fromiter((_token_hash(t) for t in toks), dtype=np.uint64, count=len(toks))
    h = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):  # h = sum of code[i + j] * BASE^(k - 1 - j), mod 2^64
            h = h * _BASE + codes[j : j + n]
        mixed = _mix(h)
    mixed[mixed == _MAX] -= np.uint64(1)  # MAX pads the first windows below
    return mixed


def winnow(hashes: np.ndarray, window: int = WINDOW) -> np.ndarray:
    """The selected hashes, in file order: the rightmost minimum of each window, the prefixes
    of the file counted as windows."""
    if len(hashes) == 0:
        return hashes
    padded = np.concatenate([np.full(window - 1, _MAX, dtype=np.uint64), hashes])
    windows = np.lib.stride_tricks.sliding_window_view(padded, window)
    rightmost = window - 1 - np.argmin(windows[:, ::-1], axis=1)
    positions = np.unique(np.arange(len(windows)) + rightmost - (window - 1))
    return hashes[positions]


def fingerprints(source: str, k: int = K, window: int = WINDOW) -> np.ndarray:
    """The winnowed fingerprints of Python source."""
    return winnow(kgram_hashes(tokens(source), k), window)
