"""One local model server for every pytest-xdist worker of a test run (tests/parallel.py).

    python -m tests.local_server OWNER_PID N_CTX INFO_JSON

Starts llama.cpp's server (``scaffolds.local_llm.LocalLLM``), writes ``{"api_base", "model",
"pid"}`` to INFO_JSON (``{"error"}`` if it cannot start), and serves until the process
OWNER_PID (the run's pytest-xdist controller) or the server ends. The server itself ends with
this process, even if it is killed (``LocalLLM`` watches its parent).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

KEEP_STATES = {"CACHE": "true", "CACHE_TYPE": "ram", "CACHE_SIZE": str(1 << 30)}
"""llama-cpp-python's server settings (read from the environment): a prompt that continues an
earlier conversation resumes from its saved state, whatever other conversations came between,
instead of reading the whole prompt again."""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def publish(path: Path, data: dict[str, object]) -> None:
    """Write ``data`` so that a reader never sees half of it."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data))
    partial.rename(path)


def main(argv: list[str]) -> int:
    from scaffolds.local_llm import LocalLLM, LocalModelUnavailable

    owner, n_ctx, info = int(argv[0]), int(argv[1]), Path(argv[2])
    try:  # workers' conversations interleave: llama.cpp keeps each one's state in RAM
        llm = LocalLLM.start(n_ctx=n_ctx, env=KEEP_STATES)
    except LocalModelUnavailable as exc:
        publish(info, {"error": str(exc)})
        return 1
    with llm:
        publish(info, {"api_base": llm.api_base, "model": llm.model, "pid": os.getpid()})
        while alive(owner) and llm.death() is None:
            time.sleep(1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
