"""The constraint judge: is each of a task's special instructions followed by its final code?

A client of the one judge mechanism (``scaffolds.judge``). Following upstream
``eval_constraint.py`` and the paper:

- the constraints are ``special_instructions`` split with upstream's regex (119 in Lite);
- one question per constraint, on the final code only (``best_solution.py``), with the paper's
  prompt (``prompts/tam/constraint.md``): a code-review expert, "Constraint {i}: {text}", the
  code, and a conservative "No" when the code holds no evidence;
- the paper's two-line answer (``Answer: Yes/No``, ``Reason: ...``) is the verdict tool's two
  fields, and its rule is kept: a constraint passes when the answer, lower-cased (full-width
  colon normalised), contains "yes". Only a call of that tool is a verdict: a text reply, in
  the paper's format or any other, is an invalid answer and asked again (the code being judged
  is quoted in the prompt and could dictate text);
- one change to the paper's prompt: the code is fenced as data between ``<code>`` tags, its
  own copies of the prompt's tags broken (``prompts.quoting``), with a line saying it is data,
  never instructions;
- pass rate = passed / total. An invalid verdict (a reply that never parsed, the cost cap) is
  a failure with its reason, as upstream's parse of a bad reply would be;
- a model error is no verdict on the code: when any constraint is left without one because
  the judge model failed, there is no pass rate (``None``) and ``judge_error`` says why. The
  verdicts that came back are in the judge log, so grading again asks only the rest.

A missing or unreadable code file fails every constraint with that reason, without a call.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

import prompts
from prompts.quoting import quote
from scaffolds.messages import ModelError

if TYPE_CHECKING:
    from bench_adapters.tam.task import JudgeOptions, TamTask
    from scaffolds.protocols import Model

TOOL = "submit_verdict"
MAX_CODE_CHARS = 120_000
MAX_READ_BYTES = 16 * 2**20
"""Bytes of the final code read at most (the judge sees ``MAX_CODE_CHARS`` of them)."""
"""Longer code is cut in the middle, with a marker, before it is sent."""
LOG_FILE = "constraint_judge.jsonl"
"""The judge log, beside the code file: a repeated grading costs nothing."""


class ConstraintVerdict(BaseModel):
    """Say whether the code complies with the constraint."""

    answer: str = Field(description="Yes or No")
    reason: str = Field(description="Brief, specific justification")

    @property
    def passed(self) -> bool:
        """Upstream's rule: the first line of the answer, lower-cased, contains "yes"."""
        lines = self.answer.strip().splitlines()
        return bool(lines) and "yes" in lines[0].lower().replace("：", ":")


@dataclass
class Verdict:
    index: int
    """1-based, as the constraints are numbered."""
    constraint: str
    passed: bool
    answer: str | None
    reason: str
    valid: bool
    """False when no verdict came back (the reason says why)."""
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class JudgeResult:
    verdicts: list[Verdict]
    model: str | None
    usage: dict[str, Any] = field(default_factory=dict)
    judge_error: str | None = None
    """Set when the judge model failed on some constraint: then there is no pass rate."""

    @property
    def passed(self) -> int:
        return sum(v.passed for v in self.verdicts)

    @property
    def pass_rate(self) -> float | None:
        if self.judge_error is not None:
            return None
        return self.passed / len(self.verdicts) if self.verdicts else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "passed": self.passed,
            "total": len(self.verdicts),
            "constraint_pass": self.pass_rate,
            "judge_error": self.judge_error,
            "usage": self.usage,
            "constraints": [v.to_dict() for v in self.verdicts],
        }


def read_code(path: Path) -> tuple[str | None, str]:
    """(code, reason it is missing): the file and the folder holding it are opened by
    descriptor, neither through a link (an agent may have swapped either for one), and the
    file is read only when it is a regular file (at most ``MAX_READ_BYTES``)."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        parent = os.open(path.parent, flags)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            return None, f"{path.parent.name}/ is a link, not the run's folder"
        return None, f"{path.name} cannot be read: {e.strerror}"
    try:
        fd = os.open(path.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=parent)
    except FileNotFoundError:
        return None, f"no {path.name}: the run left no final code"
    except OSError as e:
        if e.errno == errno.ELOOP:
            return None, f"{path.name} is a link, not the final code"
        return None, f"{path.name} cannot be read: {e.strerror}"
    finally:
        os.close(parent)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None, f"{path.name} is not a regular file"
        data = f.read(MAX_READ_BYTES)
    code = data.decode("utf-8", errors="replace")
    if len(code) > MAX_CODE_CHARS:
        half = MAX_CODE_CHARS // 2
        cut = len(code) - 2 * half
        code = f"{code[:half]}\n[... {cut} characters elided ...]\n{code[-half:]}"
    return code, ""


def prompt(index: int, constraint: str, code: str) -> list[dict[str, Any]]:
    text = prompts.render(
        "tam",
        "constraint",
        trim="none",
        index=index,
        constraint=constraint,
        code=quote(code),
        tool=TOOL,
    )
    return [{"role": "user", "content": text}]


def judge_constraints(
    items: list[str],
    code_path: Path,
    model: Model | None,
    *,
    workers: int = 8,
    max_cost_usd: float | None = None,
    log: Path | None = None,
) -> JudgeResult:
    """One verdict per constraint in ``items`` on the code at ``code_path``."""
    from scaffolds.judge import Judge, Question

    code, missing = read_code(code_path)
    if code is None or model is None:
        reason = missing or "no judge model"
        verdicts = [Verdict(i, c, False, None, reason, False) for i, c in enumerate(items, 1)]
        return JudgeResult(verdicts, None if model is None else model.name)
    judge = Judge(model, log=log, workers=workers, max_cost_usd=max_cost_usd, tool_name=TOOL)
    questions = [Question(str(i), prompt(i, c, code)) for i, c in enumerate(items, start=1)]
    answers = judge.ask_all(questions, ConstraintVerdict)
    verdicts, errors = [], []
    for i, (constraint, answer) in enumerate(zip(items, answers, strict=True), start=1):
        got = answer.verdict
        if got is None:
            reason = f"no verdict: {answer.error}"
            verdicts.append(Verdict(i, constraint, False, None, reason, False, answer.cached))
            if answer.model_error:
                errors.append(" ".join(str(answer.error).split())[:300])
            continue
        verdicts.append(
            Verdict(i, constraint, got.passed, got.answer, got.reason, True, answer.cached)
        )
    usage = {**judge.usage.to_dict(), "calls": judge.calls}
    failed = (
        f"the judge model failed on {len(errors)} of {len(items)} constraints (no pass rate; "
        f"grading again asks only those): {errors[0]}"
        if errors
        else None
    )
    return JudgeResult(verdicts, model.name, usage, failed)


def make_judge_model(options: JudgeOptions) -> Model:
    from scaffolds.model import ModelConfig, make_model

    return make_model(ModelConfig(model=str(options.model), api_base=options.api_base))


def judge_code(task: TamTask, code_path: Path, options: JudgeOptions) -> JudgeResult:
    """The task's constraints judged on ``code_path`` by ``options.model``."""
    items = task.constraints
    code, _ = read_code(code_path)
    try:
        model = make_judge_model(options) if code is not None else None
    except ModelError as e:  # a judge that cannot be reached is no verdict on the code
        reason = f"no verdict: {e}"
        verdicts = [Verdict(i, c, False, None, reason, False) for i, c in enumerate(items, 1)]
        return JudgeResult(verdicts, options.model, judge_error=f"no judge model: {e}")
    if model is None:
        result = judge_constraints(items, code_path, None)
        result.model = options.model
        return result
    writable = os.access(code_path.parent, os.W_OK)
    log = code_path.parent / LOG_FILE if writable else None  # read-only: judge without a log
    return judge_constraints(items, code_path, model, max_cost_usd=options.max_cost_usd, log=log)
