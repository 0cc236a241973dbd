"""The ``python`` tool: code runs in the run's persistent Jupyter kernel."""

from __future__ import annotations

from collections.abc import Callable

from tools.kernel import PythonKernel


def make_python_tool(
    kernel: PythonKernel, limit: Callable[[], float], output_cap: int = 16000
) -> Callable[[str], str]:
    """The ``python`` tool function; ``limit()`` gives each call's timeout in seconds."""

    def python(code: str) -> str:
        """Run Python code in a persistent Jupyter (IPython) kernel.

        Variables, imports and the current directory persist between calls, like cells of a
        notebook; the kernel starts in the workspace root. You see stdout, stderr,
        tracebacks and the value of the last expression; plots and other rich output show
        only as a placeholder. Long output is cut in the middle. A call that runs past the
        time limit is interrupted.

        Args:
            code: The Python code to run.
        """
        return kernel.execute(code, limit(), output_cap).output or "(no output)"

    return python
