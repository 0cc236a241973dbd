"""``python -m scaffolds.basic``: BasicAgent, a ReAct loop over the shared tools that ends when
the model calls ``answer`` with a valid submission."""

from __future__ import annotations

from basic_agent import BasicAgent, BasicConfig
from scaffolds.entry import main_for

DESCRIPTION = (
    "Run BasicAgent on one task: the model calls tools (python, bash, file tools, "
    "validate_submission, answer) until it answers with a valid submission or a limit is reached."
)
EXAMPLE = (
    "python -m scaffolds.basic --model openai/gpt-4o --task demo/tabular-binary "
    "--time-limit 30m --steps 50"
)


def main(argv: list[str] | None = None) -> int:
    return main_for("basic", BasicConfig, BasicAgent, DESCRIPTION, EXAMPLE, argv)


if __name__ == "__main__":
    raise SystemExit(main())
