"""A grid's index page: a small real grid (``python -m scaffolds.ablate``, replay models, one run
that crashes), then ``python -m scaffolds.view GRID_DIR``, opened in headless Chromium."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tests.scaffolds.view_browser import Browser

USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "cost_usd": 0.001}
CODE = (
    "import shutil\nshutil.copy('data/sample_submission.csv', 'submission/submission.csv')\n"
    "print('validation score 0.5')"
)


def reply(content: str | None, *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    tool_calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)
    ]
    return {"role": "assistant", "content": content, "tool_calls": tool_calls, "usage": USAGE}


def cassettes(folder: Path) -> str:
    """Replay files for basic and aide; none for iterative, whose run therefore crashes."""
    basic = [reply(None, ("python", {"code": CODE})), reply("Done.", ("answer", {}))]
    review = reply(None, ("submit_review", {"is_bug": False, "summary": "ok", "metric": 0.5}))
    aide = [reply(f"Copy the sample.\n\n```python\n{CODE}\n```"), review] * 2
    for name, lines in (("basic", basic), ("aide", aide)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    return f"replay:{folder}/{{scaffold}}.jsonl"


@pytest.mark.slow
def test_grid_index_links_every_run_and_shows_the_summary(
    agent_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    root = agent_dir("view-grid-")
    grid = root / "grid"
    ablate = [sys.executable, "-m", "scaffolds.ablate", "--scaffolds", "basic,aide,iterative",
              "--models", cassettes(root), "--tasks", "demo/tabular-binary", "--steps", "2",
              "--workers", "2", "--no-report", "--out", str(grid)]  # fmt: skip
    # exit status 1: the iterative run crashed (it has no replay file)
    done = subprocess.run(ablate, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1 and (grid / "results.jsonl").is_file(), done.stderr[-3000:]
    for page in grid.glob("runs/*/view.html"):
        page.unlink()  # the index draws missing run pages itself

    view = [sys.executable, "-m", "scaffolds.view", str(grid)]
    made = subprocess.run(view, capture_output=True, text=True, timeout=120, check=False)
    assert made.returncode == 0, made.stderr[-3000:]
    index = Path(made.stdout.strip())
    assert index == grid / "index.html" and (grid / "summary.md").is_file()

    with Browser(tmp_path / "chromium") as browser:
        tab = browser.open(index.as_uri())
        tab.wait_for("document.body.dataset.ready === '1'")
        allowed = [index.as_uri()]  # and the plots, which are data: images inside the page
        assert [u for u in tab.requests if not u.startswith("data:image/png")] == allowed
        assert tab.errors == [] and tab.blocked() == []
        rows = tab.eval(
            "[...document.querySelectorAll('#runs tbody tr')].map(tr => [...tr.cells].map("
            "td => td.innerText))"
        )
        header = tab.eval("[...document.querySelectorAll('#runs th')].map(th => th.innerText)")
        table = [dict(zip([h.rstrip(" ▲▼") for h in header], row, strict=True)) for row in rows]
        by_scaffold = {r["scaffold"]: r for r in table}
        assert set(by_scaffold) == {"basic", "aide", "iterative"}
        assert by_scaffold["iterative"]["status"] == "crashed"
        for name in ("basic", "aide"):
            row = by_scaffold[name]
            summary = json.loads(next(grid.glob(f"runs/{name}__*/run.json")).read_text())
            assert row["task"] == "demo/tabular-binary" and row["seed"] == "0"
            assert row["status"] == summary["status"] and row["medal"] == "none"
            assert float(row["score"]) == summary["grade"]["score"]
            assert row["cost (USD)"] == f"{summary['usage']['cost_usd']:.4f}"
        links = tab.eval("[...document.querySelectorAll('#runs a')].map(a => a.href)")
        assert len(links) == 2  # the crashed run wrote no record: a row, and no page
        crashed = tab.eval("[...document.querySelectorAll('#runs td')].find(td => td.title).title")
        assert crashed.strip()  # why it crashed, from results.jsonl
        for link in links:
            assert link.startswith(grid.as_uri()) and Path(unquote(link[7:])).is_file()

        summary_text = tab.eval("document.getElementById('summary').innerText")
        assert "Grid summary" in summary_text and "pass@k" in summary_text
        assert tab.eval("document.querySelectorAll('#summary table').length") >= 3
        plots = tab.eval("[...document.querySelectorAll('img.plot')].map(i => i.naturalWidth)")
        assert len(plots) == 2 and min(plots) > 100  # both plots decoded from the page itself

        page = browser.open(links[0])  # a run page, reached from the index
        page.wait_for("document.body.dataset.ready === '1'")
        assert page.errors == [] and page.requests == [links[0]]


def test_view_cli_writes_where_told_and_rejects_other_folders(tmp_path: Path) -> None:
    view = [sys.executable, "-m", "scaffolds.view"]
    done = subprocess.run([*view, str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "neither run.json" in done.stderr
    helped = subprocess.run([*view, "--help"], capture_output=True, text=True, check=False)
    assert helped.returncode == 0 and "example:" in helped.stdout and "--open" in helped.stdout

    run_dir = tmp_path / "killed-run"  # no trajectory yet, no grade: a page all the same
    run_dir.mkdir()
    (run_dir / "run.json").write_text(json.dumps({"scaffold": "aide", "status": "running"}))
    out = tmp_path / "pages" / "killed.html"
    args = [*view, str(run_dir), "--out", str(out)]
    missing = subprocess.run(args, capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    out.parent.mkdir()
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == str(out)
    assert "not graded yet" in out.read_text() and not (run_dir / "view.html").exists()


def test_a_policy_grid_row_names_the_policy_beside_the_scaffold(tmp_path: Path) -> None:
    from scaffolds.view.grid import run_row

    result = {"scaffold": "aide", "policy": "mcts", "model": "m", "task": "demo/x", "seed": 0}
    assert run_row("aide-mcts__m__x__seed0", tmp_path, result, tmp_path)["scaffold"] == "aide-mcts"
    plain = run_row("aide__m__x__seed0", tmp_path, {**result, "policy": None}, tmp_path)
    assert plain["scaffold"] == "aide"
