"""The file tools: ``view``, ``create``, ``str_replace`` and ``insert``.

Every read and write is done by the agent user (see agent_io), so these tools can reach
exactly the files the agent's own code can. Relative paths start at the workspace root.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from tools import agent_io
from tools.errors import ToolError
from tools.sandbox import Sandbox
from tools.truncate import StreamCap, truncate_middle
from tools.workspace import Workspace

SNIPPET_CONTEXT = 4
"""Lines shown around an edit."""
_MAX_LINE = 2000
"""Characters shown of one line in ``view``; longer lines are cut in the middle."""


def _numbered(number: int, line: str) -> str:
    return f"{number:6}\t{truncate_middle(line, _MAX_LINE)}"


def _lines(stream: IO[bytes]) -> Iterator[str]:
    """Lines of ``stream`` (without newlines), each read in bounded memory."""
    while True:
        raw = stream.readline(_MAX_LINE * 4)
        if not raw:
            return
        line = raw
        while not line.endswith(b"\n"):  # a very long line: keep its start and its end
            more = stream.readline(_MAX_LINE * 4)
            if not more:
                break
            line = line[: _MAX_LINE * 4] + more[-_MAX_LINE * 4 :]
        yield line.rstrip(b"\n").decode("utf-8", "replace")


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")  # round-trips bytes that are not UTF-8


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _snippet(text: str, first: int, last: int, cap: int) -> str:
    """Lines ``first``..``last`` (1-based) of ``text`` with SNIPPET_CONTEXT around them."""
    lines = text.split("\n")
    start = max(1, first - SNIPPET_CONTEXT)
    end = min(len(lines), last + SNIPPET_CONTEXT)
    body = "\n".join(_numbered(n, lines[n - 1]) for n in range(start, end + 1))
    return truncate_middle(_encode(body).decode("utf-8", "replace"), cap)


def make_file_tools(
    workspace: Workspace,
    sandbox: Sandbox,
    limit: Callable[[], float],
    output_cap: int = 16000,
) -> list[Callable[..., str]]:
    """The four file tool functions, bound to one workspace and sandbox."""

    def timeout() -> float:
        return min(limit(), 300.0)

    def kind(path: Path) -> agent_io.PathKind:
        return agent_io.path_kind(sandbox, path, timeout())

    def read_text(path: Path) -> str:
        found = kind(path)
        if found == "directory":
            raise ToolError(f"{path} is a directory, not a file.")
        if found == "missing":
            raise ToolError(f"{path} does not exist.")
        return _decode(agent_io.read_bytes(sandbox, path, timeout()))

    def view(path: str, view_range: list[int] | None = None) -> str:
        """Show a file with line numbers, or list a directory two levels deep.

        Args:
            path: File or directory, absolute or relative to the workspace root.
            view_range: For a file, `[first, last]` line numbers to show (1-based, inclusive;
                `last` = -1 means to the end). Default: the whole file.
        """
        target = workspace.resolve(path)
        found = kind(target)
        if found == "missing":
            raise ToolError(f"{target} does not exist.")
        if found == "directory":
            if view_range is not None:
                raise ToolError("view_range applies to files only; omit it for a directory.")
            entries, problems = agent_io.list_tree(sandbox, target, 2, timeout())
            listing = [f"{rel}/" if is_dir else rel for rel, is_dir in entries]
            header = f"Files and directories in {target}, two levels deep, hidden ones left out:"
            body = "\n".join(listing + problems) or "(empty directory)"
            return header + "\n" + truncate_middle(body, output_cap)
        first, last = 1, -1
        if view_range is not None:
            if len(view_range) != 2:
                raise ToolError("view_range must be two line numbers: [first, last].")
            first, last = view_range
            if first < 1 or (last != -1 and last < first):
                raise ToolError(
                    f"Invalid view_range {view_range}: need 1 <= first <= last, or last = -1."
                )
        out = StreamCap(output_cap)
        count = 0
        with agent_io.open_for_reading(sandbox, target, timeout()) as stream:
            if b"\0" in stream.peek(8192)[:8192]:  # type: ignore[attr-defined]
                raise ToolError(f"{target} looks like a binary file; inspect it with python.")
            for count, line in enumerate(_lines(stream), start=1):
                if count >= first and (last == -1 or count <= last):
                    out.write(_numbered(count, line) + "\n")
        if count == 0:
            return f"{target} is empty."
        if first > count:
            raise ToolError(
                f"Invalid view_range {view_range}: {target} has {count} lines, "
                f"so first must be between 1 and {count}."
            )
        shown_last = count if last == -1 else min(last, count)
        note = "" if last <= count else f" (the file ends at line {count})"
        header = f"{target}, lines {first}-{shown_last} of {count}{note}:"
        return header + "\n" + out.text().rstrip("\n")

    def create(path: str, file_text: str) -> str:
        """Create a file, or overwrite it, with the given content. Missing parent directories
        are created.

        Args:
            path: File to write, absolute or relative to the workspace root.
            file_text: The complete new content of the file.
        """
        target = workspace.resolve(path)
        found = kind(target)
        if found == "directory":
            raise ToolError(f"{target} is a directory; give a file path.")
        agent_io.write_bytes(sandbox, target, _encode(file_text), timeout())
        lines = file_text.count("\n") + (0 if file_text.endswith("\n") or not file_text else 1)
        verb = "Overwrote" if found == "file" else "Created"
        return f"{verb} {target} ({lines} lines)."

    def str_replace(path: str, old_str: str, new_str: str) -> str:
        """Replace the one occurrence of `old_str` in a file with `new_str`.

        `old_str` must match exactly (whitespace included) and occur exactly once; include
        surrounding lines to make it unique.

        Args:
            path: File to edit, absolute or relative to the workspace root.
            old_str: The exact text to replace.
            new_str: The text to put in its place (may be empty to delete `old_str`).
        """
        target = workspace.resolve(path)
        if not old_str:
            raise ToolError("old_str is empty; give the exact text to replace.")
        text = read_text(target)
        count = text.count(old_str)
        if count == 0:
            raise ToolError(f"No replacement made: old_str does not occur in {target}.")
        if count > 1:
            lines: list[int] = []
            start = 0
            while len(lines) < count:
                at = text.index(old_str, start)
                lines.append(text.count("\n", 0, at) + 1)
                start = at + len(old_str)
            raise ToolError(
                f"No replacement made: old_str occurs {count} times in {target} (starting on "
                f"lines {', '.join(map(str, lines))}); make it unique with more context."
            )
        at = text.index(old_str)
        new_text = text[:at] + new_str + text[at + len(old_str) :]
        agent_io.write_bytes(sandbox, target, _encode(new_text), timeout())
        first = text.count("\n", 0, at) + 1
        last = first + new_str.count("\n")
        snippet = _snippet(new_text, first, last, output_cap)
        return f"Edited {target}. The changed part now reads:\n{snippet}"

    def insert(path: str, insert_line: int, insert_text: str) -> str:
        """Insert text into a file after a given line.

        Args:
            path: File to edit, absolute or relative to the workspace root.
            insert_line: The line after which to insert (0 inserts at the top).
            insert_text: The text to insert; a final newline is added if missing.
        """
        target = workspace.resolve(path)
        text = read_text(target)
        lines = text.splitlines(keepends=True)
        if not 0 <= insert_line <= len(lines):
            raise ToolError(
                f"insert_line {insert_line} is out of range: {target} has {len(lines)} lines, "
                f"so use 0 to {len(lines)}."
            )
        if lines and insert_line == len(lines) and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        block = insert_text if insert_text.endswith("\n") else insert_text + "\n"
        new_text = "".join([*lines[:insert_line], block, *lines[insert_line:]])
        agent_io.write_bytes(sandbox, target, _encode(new_text), timeout())
        added = block.count("\n")
        snippet = _snippet(new_text, insert_line + 1, insert_line + added, output_cap)
        return f"Inserted {added} lines into {target} after line {insert_line}:\n{snippet}"

    return [view, create, str_replace, insert]
