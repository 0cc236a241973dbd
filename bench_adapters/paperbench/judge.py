"""The PaperBench rubric judge: one bounded question per rubric leaf, asked through ``scaffolds.judge``.

For each leaf of the rubric being graded:

1. A Result Analysis leaf scores 0 without a call when reproduction changed no file: there are
   no reproduced results to analyse (upstream's rule).
2. The leaf's candidate files (``files.Submission.candidates``) go into the prompt whole when
   they fit its token budget. Otherwise they are ranked, by the judge model (``llm``, upstream's
   way: one more question per leaf) or by BM25 (``bm25``: no call), and the best that fit go in.
   An invalid LLM ranking falls back to BM25.
3. The prompt: the paper with its addendum and judge addendum, ``reproduce.sh``,
   ``reproduce.log`` (never for Code Development leaves), the chosen files, then the criterion
   with the criteria before it in the rubric. The parts every leaf shares come first, so a
   provider can cache that prefix.
4. The verdict is a forced tool call: expectations, reality and a 0/1 score. An answer that does
   not parse, or a question the cost cap kept from being asked, scores 0 with ``valid_score``
   false.

Budgets are in approximate tokens (3.5 characters each): the model's input window less a reserve
for the reply. ``reproduce.log`` is cut (head and tail) to half the window; if the shared parts
still leave too little room, the log and then the paper are cut further.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from bench_adapters.paperbench.files import MAX_FILES, Pick, Submission, fits, pack
from bench_adapters.paperbench.judge_prompts import chars, render, tokens
from bench_adapters.paperbench.ranking import Bm25Ranking, LlmRanking, RankRequest
from bench_adapters.paperbench.rubric import CODE_DEVELOPMENT, RESULT_ANALYSIS, RubricNode
from bench_adapters.paperbench.scoring import LeafGrade
from prompts.quoting import quote, quote_attribute
from scaffolds.judge import Answer, Judge, Question
from scaffolds.messages import Usage
from scaffolds.protocols import Message
from tools.truncate import truncate_middle

Selection = Literal["llm", "bm25"]
DEFAULT_WINDOW = 128_000
"""Input window assumed when the judge model does not state its own."""
RESERVE_TOKENS = 10_000
"""Kept free for the reply and the tool schema (upstream's buffer); at most a quarter window."""
MAX_PRIOR_NODES = 25
"""Preceding criteria shown with a leaf: its ancestors and their earlier siblings, nearest last."""
BATCH = 256
"""Leaves whose prompts are built and asked together: memory stays bounded on big rubrics."""
NO_REPRODUCTION = (
    "reproduce.sh created or changed no file, so there are no reproduced results to analyse."
)


class LeafVerdict(BaseModel):
    """Submit your grade of the criterion."""

    expectations: str = Field(description="What a correct resolution looks like, given the paper")
    reality: str = Field(description="What the submission actually does, citing files and logs")
    score: int = Field(ge=0, le=1, description="1 if the criterion is met, 0 if it is not")


@dataclass(frozen=True)
class PaperText:
    """What every prompt of one grading shares."""

    paper: str
    addendum: str
    reproduce_sh: str
    reproduce_log: str


def _user(content: str) -> Message:
    return {"role": "user", "content": content}


class RubricJudge:
    """Grades the leaves of one rubric tree against one submission."""

    def __init__(
        self,
        judge: Judge,
        text: PaperText,
        submission: Submission,
        selection: Selection = "llm",
        window: int = DEFAULT_WINDOW,
    ):
        self.judge = judge
        self.submission = submission
        self.selection = selection
        self.window = window
        self.reserve = min(RESERVE_TOKENS, window // 4)
        text = self._fit(text)
        system = render("judge_system", tool=judge.tool_name)
        self.system: Message = {"role": "system", "content": system}
        self.paper = _user(render("judge_paper", paper=text.paper, addendum=text.addendum))
        self.sh = _user(render("judge_reproduce_sh", reproduce_sh=quote(text.reproduce_sh)))
        self.log = _user(render("judge_reproduce_log", reproduce_log=quote(text.reproduce_log)))
        self.ranker: Bm25Ranking | LlmRanking = (
            LlmRanking(judge, self.paper, submission.texts, window - self.reserve)
            if selection == "llm"
            else Bm25Ranking(submission.texts)
        )

    def _fit(self, text: PaperText) -> PaperText:
        """Cut the log to half the window, then log and paper until the shared parts leave a
        quarter of the window for files and the criterion."""
        log = truncate_middle(text.reproduce_log, chars(self.window // 2))
        room = self.window - self.reserve - self.window // 4 - 800  # 800: the fixed prompt text
        rest = tokens(text.addendum) + tokens(text.reproduce_sh)
        over = tokens(log) + tokens(text.paper) + rest - room
        if over > 0:
            log = truncate_middle(log, chars(tokens(log) - over))
            over = tokens(log) + tokens(text.paper) + rest - room
        paper = text.paper
        if over > 0:
            keep = chars(tokens(paper) - over)
            paper = paper[:keep] + f"\n[... {len(paper) - keep} characters of the paper cut ...]"
        return PaperText(paper, text.addendum, text.reproduce_sh, log)

    def head(self, category: str | None) -> list[Message]:
        """The messages before the files: ``reproduce.log`` only outside Code Development."""
        if category == CODE_DEVELOPMENT:
            return [self.system, self.paper, self.sh]
        return [self.system, self.paper, self.sh, self.log]

    def grade(self, tree: RubricNode) -> list[LeafGrade]:
        """Leaf grades in ``tree.leaves()`` order."""
        leaves = tree.leaves()
        plans: list[_Plan | LeafGrade] = []
        for leaf, prior in zip(leaves, prior_nodes(tree), strict=True):
            if leaf.task_category == RESULT_ANALYSIS and not self.submission.changed:
                plans.append(LeafGrade(0.0, True, NO_REPRODUCTION, {"asked": False}))
            else:
                plans.append(self._plan(leaf, prior))
        todo = [p for p in plans if isinstance(p, _Plan)]
        answers: list[Answer[LeafVerdict]] = []
        for start in range(0, len(todo), BATCH):  # prompts exist a batch at a time
            batch = todo[start : start + BATCH]
            self._rank([p for p in batch if p.ranking == "pending"])
            questions = [Question(p.leaf.id, self._messages(p)) for p in batch]
            answers += self.judge.ask_all(questions, LeafVerdict)
        done = iter(answers)
        return [p if isinstance(p, LeafGrade) else p.result(next(done)) for p in plans]

    def _plan(self, leaf: RubricNode, prior: Sequence[RubricNode]) -> _Plan:
        criterion = render(
            "judge_criterion",
            preceding="\n".join(f" -> {node.requirements}" for node in prior) or "(none)",
            criterion=leaf.requirements,
            category=leaf.task_category,
            question=render(f"judge_question_{_slug(leaf.task_category)}"),
            tool=self.judge.tool_name,
        )
        used = sum(tokens(m["content"]) for m in self.head(leaf.task_category)) + tokens(criterion)
        candidates = self.submission.candidates(leaf.task_category)
        plan = _Plan(leaf, criterion, candidates, chars(self.window - self.reserve - used - 200))
        if fits(candidates, self.submission.texts, plan.budget):
            plan.ranked, plan.ranking = candidates, "all"
        return plan

    def _rank(self, plans: list[_Plan]) -> None:
        requests = [RankRequest(p.leaf.id, p.leaf.requirements, p.candidates) for p in plans]
        for plan, ranking in zip(plans, self.ranker.rank_all(requests), strict=True):
            plan.ranked, plan.ranking, plan.usage = ranking.paths, ranking.how, ranking.usage

    def _messages(self, plan: _Plan) -> list[Message]:
        plan.picks = pack(plan.ranked, self.submission.texts, plan.budget, _max_files(plan))
        blocks = "\n\n".join(
            render("judge_file", path=quote_attribute(pick.path), text=quote(_shown(pick)))
            for pick in plan.picks
        )
        name = (
            "judge_files_results" if plan.leaf.task_category == RESULT_ANALYSIS else "judge_files"
        )
        files = render(
            name,
            shown=len(plan.picks),
            total=len(plan.candidates),
            files=blocks or "(no file)",
        )
        return [*self.head(plan.leaf.task_category), _user(files), _user(plan.criterion)]


def _max_files(plan: _Plan) -> int:
    return len(plan.ranked) if plan.ranking == "all" else MAX_FILES


def _shown(pick: Pick) -> str:
    return pick.text + (
        "\n[... the rest of this file was cut to fit the prompt ...]" if pick.cut else ""
    )


def _slug(category: str | None) -> str:
    return (category or CODE_DEVELOPMENT).lower().replace(" ", "_")


@dataclass
class _Plan:
    """One leaf on its way to a question."""

    leaf: RubricNode
    criterion: str
    candidates: list[str]
    budget: int
    ranked: list[str] = field(default_factory=list)
    ranking: str = "pending"
    picks: list[Pick] | None = None
    usage: Usage = field(default_factory=Usage)

    def result(self, answer: Answer[LeafVerdict]) -> LeafGrade:
        usage = self.usage + answer.usage
        metadata: dict[str, Any] = {
            "asked": True,
            "cached": answer.cached,
            "files": [pick.path for pick in self.picks or []],
            "files_cut": [pick.path for pick in self.picks or [] if pick.cut],
            "candidates": len(self.candidates),
            "ranking": self.ranking,
            "usage": usage.to_dict(),
            "error": answer.error if not answer.valid else None,
            "model_error": answer.model_error,
        }
        verdict = answer.verdict
        if not answer.valid or verdict is None:
            return LeafGrade(0.0, False, f"No valid verdict: {answer.error}", metadata)
        explanation = f"Expectations: {verdict.expectations}\n\nReality: {verdict.reality}"
        return LeafGrade(float(verdict.score), True, explanation, metadata)


def prior_nodes(root: RubricNode) -> list[list[RubricNode]]:
    """For each leaf (in ``leaves()`` order): its ancestors and the earlier siblings of it and of
    its ancestors, root first, at most ``MAX_PRIOR_NODES`` (the nearest)."""
    found: list[list[RubricNode]] = []

    def visit(node: RubricNode, before: list[RubricNode]) -> None:
        if node.is_leaf():
            found.append(before)
            return
        upto = [*before, node]
        for i, child in enumerate(node.sub_tasks):
            earlier = list(node.sub_tasks[max(0, i - MAX_PRIOR_NODES) : i])
            visit(child, [*upto, *earlier][-MAX_PRIOR_NODES:])

    visit(root, [])
    return found
