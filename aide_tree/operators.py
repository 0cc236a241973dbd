"""The messages AIDE sends: the operators' prompts (draft, improve, debug, crossover) and the review's, from the templates
in ``prompts/aide/`` and the journal. Pure functions of their inputs."""

from __future__ import annotations

from aide_tree.journal import Journal, Node
from aide_tree.policies import Decision
from aide_tree.prompts import render
from scaffolds.protocols import Message

MEMORY_FIELD_CHARS = 400
"""Characters of each plan and review summary in the memory of earlier nodes."""
PLAN_CHARS = 1500
"""Characters of each parent's plan in a crossover prompt."""


def clip(text: str, chars: int = MEMORY_FIELD_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 3] + "..."


def memory(journal: Journal, keep: int) -> str:
    """What the ``keep`` most recent working nodes tried and scored."""
    good = journal.good_nodes[-keep:] if keep > 0 else []
    if not good:
        return render("memory_none")
    items = [
        render(
            "memory_item",
            id=n.id,
            operator=n.operator,
            metric=journal.metric(n),
            plan=clip(n.plan),
            summary=clip(n.review),
        )
        for n in good
    ]
    return "\n".join(items)


def facts(node: Node) -> str:
    """How running the node's code went, as the harness saw it."""
    return render(
        "run_facts",
        exit_code=node.exit_code,
        exception=node.exception or "none",
        timed_out="yes" if node.timed_out else "no",
        duration=f"{node.duration_s:.1f} s",
        validation=node.validation or "not checked",
    )


def operator_messages(
    decision: Decision,
    journal: Journal,
    instructions: str,
    implementation: str,
    data_preview: str,
    memory_nodes: int,
) -> list[Message]:
    """The system message (role and task) and the operator's request."""
    common = {
        "implementation": implementation,
        "response_format": render("response_format"),
        "data_preview": data_preview,
    }
    parent = decision.parent
    if parent is None:
        request = render("draft", memory=memory(journal, memory_nodes), **common)
    else:
        shown = {"parent_id": parent.id, "parent_code": parent.code, "parent_output": parent.output}
        if decision.operator == "improve":
            request = render(
                "improve",
                memory=memory(journal, memory_nodes),
                parent_metric=journal.metric(parent),
                **shown,
                **common,
            )
        elif decision.operator == "crossover" and decision.second_parent is not None:
            second = decision.second_parent
            request = crossover_request(parent, second, journal, memory_nodes, common)
        else:
            request = render(
                "debug", parent_facts=facts(parent), parent_review=parent.review, **shown, **common
            )
    return [
        {"role": "system", "content": render("system", instructions=instructions)},
        {"role": "user", "content": request},
    ]


def crossover_request(
    first: Node, second: Node, journal: Journal, memory_nodes: int, common: dict[str, str]
) -> str:
    """The crossover prompt: both parents' plans, metrics and code (not their outputs)."""
    return render(
        "crossover",
        memory=memory(journal, memory_nodes),
        first_id=first.id,
        first_metric=journal.metric(first),
        first_plan=clip(first.plan, PLAN_CHARS),
        first_code=first.code,
        second_id=second.id,
        second_metric=journal.metric(second),
        second_plan=clip(second.plan, PLAN_CHARS),
        second_code=second.code,
        **common,
    )


def review_messages(node: Node, instructions: str) -> list[Message]:
    return [
        {"role": "system", "content": render("review_system", instructions=instructions)},
        {
            "role": "user",
            "content": render("review", code=node.code, output=node.output, facts=facts(node)),
        },
    ]
