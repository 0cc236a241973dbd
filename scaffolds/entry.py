"""The body of every scaffold's command (``python -m scaffolds.aide|basic|iterative``).

Flags -> a run (``scaffolds.runtime``) -> the summary line -> the exit code
(``scaffolds.exit_codes``). Once the record is final, the command draws the run's page
(``view.html``): the entry point writes the data, then draws, and nothing below it draws.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from scaffolds.config import RunConfig, build_parser, parse_config
from scaffolds.exit_codes import FAILED_STATUSES, HELP, for_status, sigterm_interrupts
from scaffolds.messages import ModelError
from scaffolds.protocols import Task
from scaffolds.runtime import Run, RunSetupError, Scaffold, execute, open_run

C = TypeVar("C", bound=RunConfig)


def draw(run: Run) -> None:
    """Draw ``view.html`` from the final record; a failure is noted in run.json (the
    trajectory has ended), never raised."""
    try:
        from scaffolds.view import write_run_page

        write_run_page(run.dir)
    except Exception as exc:  # the page is a convenience: it must not fail or lose the run
        run.record.update(view_error=f"{type(exc).__name__}: {exc}")


def main_for(
    scaffold_name: str,
    config_cls: type[C],
    make_scaffold: Callable[[C], Scaffold],
    description: str,
    example: str,
    argv: list[str] | None = None,
    check_task: Callable[[Task], None] | None = None,
) -> int:
    """The body of ``python -m scaffolds.<name>``: flags -> run -> summary line -> exit code
    (``scaffolds.exit_codes``); ``check_task`` is ``open_run``'s."""
    prog = f"python -m scaffolds.{scaffold_name}"
    parser = build_parser(config_cls, prog, description, f"{example}\n\n{HELP}")
    config = parse_config(config_cls, parser, argv)
    started = time.monotonic()
    try:
        run = open_run(config, scaffold_name, check_task=check_task)
    except (RunSetupError, ModelError, RuntimeError, FileExistsError, FileNotFoundError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    with sigterm_interrupts():
        status, grade = execute(run, make_scaffold(run.config))  # type: ignore[arg-type]
        draw(run)
    print(summary_line(run, status, grade, time.monotonic() - started))
    if status in FAILED_STATUSES:
        print(f"{prog}: {status}: {run.record.summary.get('error')}", file=sys.stderr)
    return for_status(status)


def summary_line(run: Run, status: str, grade: dict[str, Any], wall_s: float) -> str:
    medal = next((m for m in ("gold", "silver", "bronze") if grade.get(f"{m}_medal")), None)
    return (
        f"{run.scaffold} on {run.config.task}: status={status} steps={run.budget.steps} "
        f"valid={grade.get('valid_submission')} score={grade.get('score')} medal={medal or 'none'} "
        f"reward={grade.get('normalized_reward')} tokens={run.session.usage.prompt_tokens + run.session.usage.completion_tokens} "
        f"cost={run.session.usage.cost_usd} wall={wall_s:.1f}s\nrecord: {run.dir / 'run.json'}"
    )
