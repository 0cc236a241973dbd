"""A long run's page: a 500-step record with megabytes of observations renders a chunk at a
time (never one giant DOM), finds any event by search, and grows linearly with the record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from scaffolds.view import write_run_page
from tests.scaffolds.view_browser import Browser

OBSERVATION_CHARS = 8000


def write_record(run_dir: Path, steps: int) -> Path:
    """A BasicAgent-shaped record: per step a model call, a tool call, an observation of
    ``OBSERVATION_CHARS`` characters, and a checkpoint."""
    run_dir.mkdir(parents=True)
    summary = {"format_version": 1, "scaffold": "basic", "task": "demo/tabular-binary",
               "model": "replay:long.jsonl", "status": "step_limit", "steps": steps,
               "usage": {"prompt_tokens": 1000 * steps, "completion_tokens": 50 * steps}}  # fmt: skip
    (run_dir / "run.json").write_text(json.dumps(summary))
    lines = [{"t": 0.0, "kind": "start", "scaffold": "basic"}]
    for step in range(steps):
        arguments = json.dumps({"command": f"python train.py --fold {step}"})
        call = {"type": "function", "function": {"name": "bash", "arguments": arguments}}
        text = "\n".join(f"step {step} epoch {n} loss {1 / (n + 1):.6f}" for n in range(400))
        lines += [
            {"t": step + 0.1, "kind": "model_call", "purpose": "step",
             "message": {"role": "assistant", "content": f"Fold {step}.", "tool_calls": [call]},
             "usage": {"prompt_tokens": 1000, "completion_tokens": 50}},
            {"t": step + 0.2, "kind": "tool_call", "id": f"c{step}", "name": "bash",
             "arguments": arguments},
            {"t": step + 0.9, "kind": "observation", "tool_call_id": f"c{step}", "name": "bash",
             "outcome": "ok", "text": text[:OBSERVATION_CHARS], "duration_s": 0.7},
            {"t": step + 1.0, "kind": "checkpoint", "step": step + 1},
        ]  # fmt: skip
    lines.append({"t": steps + 1.0, "kind": "end", "status": "step_limit", "error": None})
    (run_dir / "trajectory.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))
    return run_dir


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with Browser(tmp_path_factory.mktemp("chromium")) as running:
        yield running


def test_a_500_step_run_renders_lazily_and_finds_any_event(
    tmp_path: Path, browser: Browser
) -> None:
    run_dir = write_record(tmp_path / "run", 500)
    assert (run_dir / "trajectory.jsonl").stat().st_size > 4_000_000
    page = write_run_page(run_dir)
    tab = browser.open(page.as_uri())
    tab.wait_for("document.body.dataset.ready === '1'")
    assert tab.requests == [page.as_uri()] and tab.errors == [] and tab.blocked() == []
    assert tab.eval("document.body.dataset.items") == "2002"
    assert tab.eval("document.body.dataset.rendered") == "60"  # one chunk, not 1,500 events
    assert tab.eval("document.getElementsByTagName('*').length") < 2000
    text = tab.eval("document.body.innerText.length")
    assert text < 200_000  # long observations show head and tail only

    tab.eval("window.scrollTo(0, document.body.scrollHeight)")
    tab.wait_for("document.body.dataset.rendered === '120'")  # the next chunk, on scroll

    tab.eval(
        "(() => { const s = document.getElementById('search'); s.value = 'step 487 epoch 200';"
        " s.dispatchEvent(new Event('input')); })()"
    )
    tab.wait_for("document.getElementById('count').textContent === '1 of 2,002 events'")
    (hit,) = tab.eval("[...document.querySelectorAll('li.item')].map(li => li.id)")
    number = 1 + 487 * 4 + 2  # start, then 4 events per step: the observation is the third
    assert hit == f"e-{number}"
    assert "holds a search match" in tab.eval(f"document.querySelector('#{hit} .fold').textContent")


def test_page_size_grows_linearly_with_the_trajectory(tmp_path: Path) -> None:
    sizes = {
        steps: write_run_page(write_record(tmp_path / f"run-{steps}", steps)).stat().st_size
        for steps in (0, 100, 200, 400)
    }
    per_step = [(sizes[n] - sizes[0]) / n for n in (100, 200, 400)]
    assert max(per_step) / min(per_step) < 1.02, sizes
    record = (tmp_path / "run-400" / "trajectory.jsonl").stat().st_size
    assert sizes[400] < 1.1 * record + sizes[0]  # each event once, about as compact as the record
