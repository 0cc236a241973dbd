"""Bounding long text: keep the head and the tail, say exactly how much was cut."""

from __future__ import annotations

from collections import deque


def _marker(elided: int) -> str:
    return f"\n[... {elided} characters elided ...]\n"


def _split(cap: int) -> tuple[int, int]:
    if cap < 0:
        raise ValueError(f"cap must be >= 0, got {cap}")
    head = cap // 2
    return head, cap - head


def truncate_middle(text: str, cap: int) -> str:
    """Return ``text`` unchanged if it has at most ``cap`` characters, else its first and last
    characters (``cap`` in all) around a ``[... N characters elided ...]`` line, N exact."""
    head, tail = _split(cap)
    if len(text) <= cap:
        return text
    return text[:head] + _marker(len(text) - cap) + text[len(text) - tail :]


class StreamCap:
    """``truncate_middle`` for text that arrives in pieces, in memory bounded by the cap.

    ``write`` as often as needed, then ``text()`` equals ``truncate_middle(all_written, cap)``.
    Only the head and (about) the last ``cap / 2`` characters are ever kept.
    """

    def __init__(self, cap: int):
        self.cap = cap
        self._head_len, self._tail_len = _split(cap)
        self._head: list[str] = []
        self._head_size = 0
        self._tail: deque[str] = deque()
        self._tail_size = 0
        self.total = 0
        """Characters written so far."""

    def write(self, piece: str) -> None:
        if not piece:
            return
        self.total += len(piece)
        room = self._head_len - self._head_size
        if room > 0:
            self._head.append(piece[:room])
            self._head_size += min(room, len(piece))
            piece = piece[room:]
            if not piece:
                return
        if self._tail_len == 0:
            return
        if len(piece) >= self._tail_len:
            self._tail.clear()
            piece = piece[-self._tail_len :]
            self._tail_size = 0
        self._tail.append(piece)
        self._tail_size += len(piece)
        while self._tail and self._tail_size - len(self._tail[0]) >= self._tail_len:
            self._tail_size -= len(self._tail.popleft())

    def skip(self, count: int) -> None:
        """Count ``count`` characters dropped upstream (after the head was full) as written."""
        self.total += max(0, count)

    @property
    def elided(self) -> int:
        """Characters that ``text()`` leaves out."""
        return max(0, self.total - self.cap)

    def text(self) -> str:
        head = "".join(self._head)
        tail = "".join(self._tail)
        if self.elided == 0:
            return head + tail
        kept_tail = tail[len(tail) - self._tail_len :] if self._tail_len else ""
        return head + _marker(self.elided) + kept_tail
