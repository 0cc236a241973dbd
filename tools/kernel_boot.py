"""Starts an IPython kernel that caps each cell's output at the source.

PythonKernel runs this file's source as ``<agent python> -c <source> --keep=N -f <connection
file> ...`` as the agent user, so the agent's interpreter needs only ipykernel, not this
package. Nothing here enters the user's namespace.

Stock ipykernel sends everything a cell prints: a cell printing gigabytes would push
gigabytes through ZeroMQ, faster than the harness can read them, and the backlog would sit
in the harness's memory. Here, per cell, stdout and stderr together pass through for the
first N characters; after that only the last N are kept (in the kernel) and sent when the
cell ends, preceded by a display message of type ``ELIDED_MIME`` carrying the exact number
of characters dropped in between. The harness counts those towards its own
``[... N characters elided ...]`` marker.
"""

import sys
from collections import deque
from typing import Any

ELIDED_MIME = "application/vnd.scaffolds.elided+json"


class _CellBudget:
    """Output accounting for the running cell, shared by stdout and stderr."""

    def __init__(self, keep: int):
        self.keep = keep
        self.active = False
        self.head_left = keep
        self.tail: deque[tuple[Any, str]] = deque()  # (stream, text) pieces, oldest first
        self.tail_size = 0
        self.dropped = 0

    def start(self) -> None:
        self.active, self.head_left, self.dropped = True, self.keep, 0
        self.tail.clear()
        self.tail_size = 0

    def hold(self, stream: object, text: str) -> None:
        """Keep ``text`` in the tail, dropping (and counting) the oldest characters."""
        if len(text) >= self.keep:
            self.dropped += self.tail_size + len(text) - self.keep
            self.tail.clear()
            self.tail.append((stream, text[-self.keep :]))
            self.tail_size = self.keep
            return
        self.tail.append((stream, text))
        self.tail_size += len(text)
        while self.tail_size > self.keep:
            old_stream, old = self.tail[0]
            excess = self.tail_size - self.keep
            if len(old) <= excess:
                self.tail.popleft()
                self.tail_size -= len(old)
                self.dropped += len(old)
            else:
                self.tail[0] = (old_stream, old[excess:])
                self.tail_size -= excess
                self.dropped += excess


def main() -> None:
    if sys.path and sys.path[0] in ("", "-c"):
        del sys.path[0]  # as ipykernel_launcher does; IPython restores the cwd for the user
    keep = 256_000
    argv = []
    for arg in sys.argv[1:]:
        if arg.startswith("--keep="):
            keep = int(arg.split("=", 1)[1])
        else:
            argv.append(arg)

    from ipykernel.iostream import OutStream
    from ipykernel.kernelapp import IPKernelApp
    from IPython.display import publish_display_data

    budget = _CellBudget(keep)

    class CappedOutStream(OutStream):
        def write(self, string: str) -> int:
            if not budget.active or not isinstance(string, str):
                super().write(string)
                return len(string)
            head = string[: budget.head_left]
            if head:
                budget.head_left -= len(head)
                super().write(head)
            if len(head) < len(string):
                budget.hold(self, string[len(head) :])
            return len(string)

    def end_of_cell() -> None:
        budget.active = False
        if budget.dropped:
            sys.stdout.flush()
            sys.stderr.flush()
            publish_display_data({ELIDED_MIME: {"chars": budget.dropped}})
        for stream, text in budget.tail:
            stream.write(text)
        budget.tail.clear()

    sys.modules[__name__].CappedOutStream = CappedOutStream  # type: ignore[attr-defined]
    argv.append(f"--IPKernelApp.outstream_class={__name__}.CappedOutStream")
    app = IPKernelApp.instance()
    app.initialize(argv)
    assert app.shell is not None
    app.shell.events.register("pre_execute", budget.start)
    app.shell.events.register("post_execute", end_of_cell)
    app.start()


if __name__ == "__main__":
    main()
