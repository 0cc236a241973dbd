"""``tree.html``: the solution tree as one self-contained page (no network, no CDN).

The journal's nodes are embedded as JSON and drawn by a short inline script; each node shows
its operator, metric, bug state, and folds out its plan, code, output and submission check. A
crossover node also links to its second parent, and a dashed line joins the two cards.

Also a command, to redraw the page of any run (for instance one that was killed):
``python -m aide_tree.tree_html RUN_DIR``.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from aide_tree.journal import Journal
from scaffolds.record import write_atomic

OUTPUT_CHARS = 4000
"""Characters of each node's output kept in the page (head and tail)."""
_MARKER = "/*JOURNAL*/"


def tree_data(journal: Journal, task: str, policy: str | None = None) -> dict[str, Any]:
    """What the page draws: the nodes (outputs cut to ``OUTPUT_CHARS``) and the best node's id.
    The run viewer (``scaffolds.view``) draws the same data beside each node's transcript."""
    from tools import truncate_middle

    best = journal.best()
    nodes = []
    for node in journal:
        record = node.to_record()
        record["output"] = truncate_middle(node.output, OUTPUT_CHARS)
        nodes.append(record)
    return {
        "task": task,
        "policy": policy,
        "lower_is_better": journal.lower_is_better,
        "best_id": None if best is None else best.id,
        "nodes": nodes,
    }


def page(journal: Journal, task: str, policy: str | None = None) -> str:
    data = tree_data(journal, task, policy)
    # inside <script>, "<" must not start a tag: escape it (and & >) as JSON unicode escapes
    payload = json.dumps(data, ensure_ascii=False)
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    template = resources.files("aide_tree").joinpath("tree_template.html").read_text("utf-8")
    return template.replace(_MARKER, payload)


def write_tree(journal: Journal, task: str, path: Path, policy: str | None = None) -> None:
    """Write the page by rename, so a reader never sees half of it; created as ``open``
    creates a file (the umask decides its mode)."""
    write_atomic(path, page(journal, task, policy), 0o666)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -m aide_tree.tree_html RUN_DIR  (writes RUN_DIR/tree.html)")
        return 2
    run_dir = Path(args[0])
    journal_path = run_dir / "journal.jsonl"
    if not journal_path.is_file():
        print(f"error: no journal at {journal_path}", file=sys.stderr)
        return 2
    header = json.loads(journal_path.open(encoding="utf-8").readline())
    journal = Journal.open(journal_path, bool(header.get("lower_is_better")))
    summary = run_dir / "run.json"
    saved = json.loads(summary.read_text()) if summary.is_file() else {}
    task = saved.get("task", run_dir.name)
    policy = (saved.get("config") or {}).get("policy")
    write_tree(journal, task, run_dir / "tree.html", policy)
    print(run_dir / "tree.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
