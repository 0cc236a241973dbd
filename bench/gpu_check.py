"""On a GPU machine: does the agent's sandboxed kernel see the GPU, and what does the prompt say?

    python bench/gpu_check.py

Prints the hardware line the instructions carry, then runs, in the agent's Jupyter kernel as the
unprivileged agent user, a CUDA check and a timed bf16 matrix product. Needs torch on the
agent's interpreter (``SCAFFOLDS_AGENT_PYTHON`` or this Python).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tools import PythonKernel, Sandbox, Workspace, hardware_line

AGENT_CODE = """
import os, time, torch
print("uid", os.getuid(), "cuda", torch.cuda.is_available(), "devices", torch.cuda.device_count())
if torch.cuda.is_available():
    print("name", torch.cuda.get_device_name(0))
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        a @ a
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(10):
        a @ a
    torch.cuda.synchronize()
    s = (time.perf_counter() - t) / 10
    print(f"bf16 8192^3 matmul: {2 * 8192**3 / s / 1e12:.0f} TFLOP/s")
"""


def main() -> None:
    print("hardware line:", hardware_line())
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o711)  # the agent user must be able to pass through to its workspace
        workspace = Workspace.create(Path(tmp) / "ws")
        sandbox = Sandbox.create(workspace, gpu=True)
        print("sandbox:", sandbox.note)
        started = time.monotonic()
        with PythonKernel(sandbox, cwd=workspace.root) as kernel:
            print(f"kernel start: {time.monotonic() - started:.1f}s")
            result = kernel.execute(AGENT_CODE, timeout_s=300)
            print(result.output.strip())
            print("exit code:", result.exit_code, "error:", result.error)


if __name__ == "__main__":
    main()
