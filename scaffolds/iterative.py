"""``python -m scaffolds.iterative``: IterativeAgent, BasicAgent's loop with no ``answer`` tool;
it works until its time or steps run out, then whatever is at the submission path is graded."""

from __future__ import annotations

from basic_agent import BasicConfig
from iterative_agent import IterativeAgent
from scaffolds.entry import main_for

DESCRIPTION = (
    "Run IterativeAgent on one task: the model calls tools (python, bash, file tools, "
    "validate_submission) until its time or steps run out; the submission file is then graded."
)
EXAMPLE = (
    "python -m scaffolds.iterative --model openai/gpt-4o --task demo/tabular-binary "
    "--time-limit 30m --steps 50"
)


def main(argv: list[str] | None = None) -> int:
    return main_for("iterative", BasicConfig, IterativeAgent, DESCRIPTION, EXAMPLE, argv)


if __name__ == "__main__":
    raise SystemExit(main())
