"""The tool layer every scaffold shares: a persistent Python kernel, bash, file tools and
submission checks, all running as an unprivileged agent user when the harness is root.

See README.md in this folder for what runs as whom.
"""

from tools.errors import ToolError
from tools.hardware import gpu_names, hardware_line, machine_facts
from tools.kernel import PythonKernel
from tools.result import ExecResult, Observation
from tools.sandbox import Sandbox
from tools.schema import function_schema
from tools.tool import Tool, tool_from_function
from tools.toolset import Toolset
from tools.truncate import truncate_middle
from tools.workspace import Workspace

__all__ = [
    "ExecResult",
    "Observation",
    "PythonKernel",
    "Sandbox",
    "Tool",
    "ToolError",
    "Toolset",
    "Workspace",
    "function_schema",
    "gpu_names",
    "hardware_line",
    "machine_facts",
    "tool_from_function",
    "truncate_middle",
]
