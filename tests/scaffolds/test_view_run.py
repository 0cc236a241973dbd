"""Run pages of replayed BasicAgent, IterativeAgent and AIDE runs, opened in headless Chromium:
header, first and last events, folding, search and filters, the AIDE tree, monitor evidence,
redaction, and no request beyond the page itself."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from aide_tree import Aide, AideConfig
from aide_tree.cassette import operator_reply, review_call, write_cassette
from basic_agent import BasicAgent, BasicConfig
from iterative_agent import IterativeAgent
from scaffolds.view import run_page, write_run_page
from tests.scaffolds.view_browser import Browser, Page

COPY_SAMPLE = (
    "import shutil; shutil.copy('data/sample_submission.csv', 'submission/submission.csv')"
)
LONG_COMMAND = "seq 1 30000"
"""About 170 kB of output: the tool keeps 16,000 characters around its elision marker."""


def events_of(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "trajectory.jsonl").open()]


@pytest.fixture(scope="module")
def runs(
    run_scaffold: Callable[..., Any],
    write_cassette: Callable[..., Path],
    call: Any,
    runs_root: Path,
) -> dict[str, Path]:
    """One finished replay run of each scaffold; each wrote its view.html as it ended."""
    basic = write_cassette(
        "view-basic",
        [
            {"content": "Look at the data.", "tool_calls": [call("bash", command=LONG_COMMAND)]},
            {"tool_calls": [call("python", code=COPY_SAMPLE)]},
            {"content": "Thinking it over."},
            {"tool_calls": [call("python", raw="{not json")]},
            {"content": "Done.", "tool_calls": [call("answer")]},
        ],
    )
    iterative = write_cassette(
        "view-iterative",
        [{"tool_calls": [call("python", code=COPY_SAMPLE)]}, {"tool_calls": [call("validate_submission")]}],
    )  # fmt: skip
    aide = write_cassette_aide(runs_root / "view-aide.jsonl")
    made = {
        "basic": run_scaffold(
            BasicAgent, BasicConfig, "basic", f"replay:{basic}", steps=10, context_window=8000
        ),  # a small window: the long observation is cut from later prompts
        "iterative": run_scaffold(
            IterativeAgent, BasicConfig, "iterative", f"replay:{iterative}", steps=2
        ),
        "aide": run_scaffold(aide_agent, AideConfig, "aide", f"replay:{aide}", steps=3),
    }
    return {name: run.dir for name, (run, _, _) in made.items()}


def aide_agent(config: AideConfig) -> Callable[[Any], str]:
    return lambda run: Aide(run).search()


def write_cassette_aide(path: Path) -> Path:
    good = COPY_SAMPLE + "\nprint('validation score 0.5')\n"
    return write_cassette(
        path,
        [
            operator_reply("Copy the sample submission.", good),
            review_call(False, "Wrote the sample submission.", 0.5),
            operator_reply("Divide by zero on purpose.", "print(1 / 0)\n"),
            review_call(True, "It raised ZeroDivisionError.", None),
            operator_reply("Copy it again.", good),
            review_call(False, "Same as before.", 0.5),
        ],
    )


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with Browser(tmp_path_factory.mktemp("chromium")) as running:
        yield running


def opened(browser: Browser, page: Path) -> Page:
    tab = browser.open(page.as_uri())
    tab.wait_for("document.body.dataset.ready === '1'")
    return tab


def assert_offline(tab: Page, page: Path) -> None:
    assert tab.requests == [page.as_uri()], tab.requests  # the page itself, nothing else
    assert tab.blocked() == [] and tab.errors == []  # nor a fetch its policy had to refuse
    markup = re.sub(r'<script type="application/json" id="data">.*?</script>', "", page.read_text())
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", markup)  # nothing to fetch
    assert tab.eval("document.getElementById('errors').textContent") == ""


def scroll_to_end(tab: Page) -> None:
    """Scroll until the lazy list has rendered every event that matches."""
    for _ in range(200):
        if tab.eval("document.getElementById('more').textContent") == "end of the transcript":
            return
        tab.eval("window.scrollTo(0, document.body.scrollHeight)")
        tab.eval("new Promise(r => requestAnimationFrame(() => setTimeout(r, 30)))")
    raise AssertionError("the transcript never ended")


def search(tab: Page, text: str) -> None:
    tab.eval(
        f"(() => {{ const s = document.getElementById('search'); s.value = {json.dumps(text)};"
        " s.dispatchEvent(new Event('input')); })()"
    )
    tab.eval("new Promise(r => setTimeout(r, 400))")  # past the debounce


@pytest.mark.parametrize("scaffold", ["basic", "iterative", "aide"])
def test_each_scaffold_run_page_shows_header_and_every_event_offline(
    runs: dict[str, Path], browser: Browser, scaffold: str
) -> None:
    run_dir = runs[scaffold]
    page = run_dir / "view.html"
    assert page.is_file() and (page.stat().st_mode & 0o077) == 0  # written by Run.finish, private
    summary = json.loads((run_dir / "run.json").read_text())
    events = events_of(run_dir)
    tab = opened(browser, page)
    assert_offline(tab, page)
    header = tab.eval("document.getElementById('header').innerText")
    assert f"{scaffold} on demo/tabular-binary" in header
    for label, value in [("status", summary["status"]), ("steps", str(summary["steps"]))]:
        assert f"{label}\n{value}" in header or f"{label} {value}" in header
    assert f"score\n{summary['grade']['score']}" in header.replace("score\t", "score\n")
    assert "medal" in header and "tokens" in header and "cost" in header

    first = tab.eval("document.getElementById('e-0').innerText")
    assert "run started" in first and "+0:00.0" in first
    scroll_to_end(tab)
    last = tab.eval(f"document.getElementById('e-{len(events) - 1}').innerText")
    assert f"run ended: {summary['status']}" in last
    shown = tab.eval("[...document.querySelectorAll('li.item')].map(li => Number(li.dataset.i))")
    hidden = {i for i, e in enumerate(events) if e["kind"] == "checkpoint"}  # off by default
    assert shown == [i for i in range(len(events)) if i not in hidden]
    assert tab.requests == [page.as_uri()]


def test_long_observation_folds_with_the_elision_marker_in_sight(
    runs: dict[str, Path], browser: Browser
) -> None:
    page = runs["basic"] / "view.html"
    tab = opened(browser, page)
    number = next(
        i
        for i, e in enumerate(events_of(runs["basic"]))
        if e["kind"] == "observation" and e["name"] == "bash"
    )
    box = f"document.querySelector('#e-{number} .block[data-folded]')"
    assert tab.eval(f"{box}.dataset.folded") == "1"
    folded = tab.eval(f"{box}.innerText")
    assert folded.startswith("output\n1\n2\n3\n") and "29999\n30000" in folded
    assert "\n500\n" not in folded  # the middle is folded away
    fold = tab.eval(f"{box}.querySelector('.fold').textContent")
    assert "characters folded" in fold and "characters elided ...]" in fold  # marker in sight

    tab.eval(f"{box}.querySelector('.fold').click()")
    unfolded = tab.eval(f"{box}.innerText")
    assert tab.eval(f"{box}.dataset.folded") == "0"
    assert "\n500\n" in unfolded and "characters elided ...]" in unfolded
    assert tab.eval(f"{box}.querySelector('.elided').textContent").startswith("[... ")
    tab.eval(f"{box}.querySelector('.fold').click()")
    assert tab.eval(f"{box}.dataset.folded") == "1" and "\n500\n" not in tab.eval(
        f"{box}.innerText"
    )

    reminder = tab.eval(f"document.querySelector('#e-{number} .block.reminder').innerText")
    assert "time left" in reminder and "steps left" in reminder
    assert_offline(tab, page)


def test_search_and_kind_filters_select_events(runs: dict[str, Path], browser: Browser) -> None:
    tab = opened(browser, runs["basic"] / "view.html")
    events = events_of(runs["basic"])
    titles = "[...document.querySelectorAll('li.item')].map(li => li.innerText)"
    search(tab, "thinking it OVER")
    (hit,) = tab.eval(titles)
    assert "Thinking it over." in hit and tab.eval("document.querySelectorAll('mark').length") == 1
    assert tab.eval("document.getElementById('count').textContent") == f"1 of {len(events)} events"
    search(tab, "")
    tab.eval("document.querySelector('.chip[data-kind=observation]').click()")
    kinds = tab.eval("[...document.querySelectorAll('li.item')].map(li => li.className)")
    assert kinds and not any("kind-observation" in k for k in kinds)
    tab.eval("document.querySelector('.chip[data-tag=error]').click()")  # errors only
    assert tab.eval(titles) == []  # the one error is an observation, and those are hidden
    assert tab.eval("document.getElementById('more').textContent") == "no event matches"
    tab.eval("document.querySelector('.chip[data-kind=observation]').click()")
    (error,) = tab.eval(titles)
    assert "python → format_error" in error
    tab.eval("document.querySelector('.chip[data-tag=error]').click()")  # all again
    truncations = [e for e in events if e["kind"] == "truncation"]
    shown = tab.eval("[...document.querySelectorAll('li.kind-truncation')].map(li => li.innerText)")
    assert truncations and len(shown) == len(truncations)
    assert (
        f"{truncations[0]['tokens_before']} → {truncations[0]['tokens_after']} tokens" in shown[0]
    )
    reminders = [e for e in events if e["kind"] == "message" and e["purpose"] == "continue"]
    assert len(reminders) == 1  # shown as kind reminder
    assert (
        tab.eval("document.querySelector('.chip[data-kind=reminder]').textContent") == "reminder 1"
    )


def test_aide_page_draws_the_tree_beside_each_nodes_transcript(
    runs: dict[str, Path], browser: Browser
) -> None:
    page = runs["aide"] / "view.html"
    tab = opened(browser, page)
    journal = [json.loads(line) for line in (runs["aide"] / "journal.jsonl").open()][1:]
    assert tab.eval("document.querySelectorAll('#tree .tnode').length") == len(journal) == 3
    assert tab.eval("document.querySelectorAll('#tree .tnode.buggy').length") == 1
    assert tab.eval("document.querySelector('#tree .tnode.best').dataset.nodeId") == "0"

    tab.eval("document.querySelector('.tnode[data-node-id=\"1\"]').click()")
    card = tab.eval("document.getElementById('card-1').innerText")
    assert "#1 draft · buggy" in card and "print(1 / 0)" in card and "ZeroDivisionError" in card
    facts = tab.eval("[...document.querySelectorAll('li.item')].map(li => li.innerText)")
    assert facts and all("node #1" in f for f in facts)
    execution = next(f for f in facts if "node #1 ran" in f)
    assert "ZeroDivisionError" in execution  # the node's output, shown with its execution
    assert any("Divide by zero on purpose." in f for f in facts)
    tab.eval("document.querySelector('#node-card .chip').click()")  # back to the whole run
    assert tab.eval("document.querySelectorAll('li.item.kind-node').length") == 3
    assert_offline(tab, page)


def test_nodes_in_flight_are_found_by_id_and_drawn_on_a_timeline(
    runs: dict[str, Path], browser: Browser, tmp_path: Path
) -> None:
    """With nodes in flight (journal version 3) the journal lists the nodes in the order they
    completed: here 1, 2, 0, so no node's id is its position."""
    run_dir = tmp_path / "aide-in-flight"
    shutil.copytree(runs["aide"], run_dir)
    journal = run_dir / "journal.jsonl"
    header, *nodes = [json.loads(line) for line in journal.open()]
    times = {0: (0.0, 4.0), 1: (1.0, 2.0), 2: (0.5, 3.0)}
    for node in nodes:
        node["started_at"], node["ended_at"] = (100 + t for t in times[node["id"]])
    nodes.sort(key=lambda n: n["ended_at"])
    lines = [{**header, "format_version": 3}, *nodes]
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    tab = opened(browser, write_run_page(run_dir))
    assert "best: #0 (0.5)" in tab.eval("document.getElementById('tree').innerText")
    buttons = "[...document.querySelectorAll('#tree .tnode')].map(b => b.dataset.nodeId)"
    assert tab.eval(buttons) == ["0", "1", "2"]  # the tree in id order, as it grew
    tab.eval("document.querySelector('.tl-row[data-node-id=\"1\"]').click()")
    card = tab.eval("document.getElementById('card-1').innerText")
    assert "#1 draft · buggy" in card and "ZeroDivisionError" in card
    assert tab.eval("document.getElementById('timeline').dataset.bars") == "3"
    bars = tab.eval(
        "[...document.querySelectorAll('#timeline .tl-bar')].map(b => [b.style.left, b.style.width])"
    )
    assert bars == [["0%", "100%"], ["25%", "25%"], ["12.5%", "62.5%"]]  # ids 0, 1, 2
    execution = tab.eval("[...document.querySelectorAll('li.item')].map(li => li.innerText)")
    assert any("node #1 ran" in f and "ZeroDivisionError" in f for f in execution)
    assert_offline(tab, run_dir / "view.html")


MONITOR_CHECKS = [
    {"name": "answers_access", "flagged": True, "advisory": True, "summary": "read the data"},
    {"name": "model_api", "flagged": False, "advisory": True, "summary": "no API calls"},
]


def test_monitor_flags_highlight_their_evidence(
    runs: dict[str, Path], browser: Browser, tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    for name in ("run.json", "trajectory.jsonl"):
        shutil.copy(runs["basic"] / name, run_dir / name)
    events = events_of(run_dir)
    observe = next(i for i, e in enumerate(events) if e["kind"] == "observation")
    call = next(
        i for i, e in enumerate(events) if e["kind"] == "tool_call" and e["name"] == "python"
    )
    raw = events[call]["arguments"]
    quoted = raw[raw.index("shutil.copy") : raw.rindex(".csv'") + 5]  # from the JSON text
    evidence = [{"event": observe, "quote": "29998\n29999"}, {"event": call, "quote": quoted}]
    checks = [{**MONITOR_CHECKS[0], "evidence": evidence}, {**MONITOR_CHECKS[1], "evidence": []}]
    monitor = {
        "format_version": 1, "run_dir": str(run_dir), "flagged": True, "disqualified": False,
        "checks": checks,
        "plagiarism": {"max_similarity": 0.71, "flagged": True,
                       "matches": [{"file": "top-notebook.py", "similarity": 0.71}]},
        "review": {"model": "replay:reviewer", "cost_usd": 0.0, "verdicts": [
            {"question": "Was the submission written by hand?", "flagged": False,
             "evidence": "It was copied by code.", "valid": True}]},
    }  # fmt: skip
    (run_dir / "monitor.json").write_text(json.dumps(monitor))
    page = write_run_page(run_dir)
    tab = opened(browser, page)
    panel = tab.eval("document.getElementById('monitor').innerText")
    assert "Monitor: flagged" in panel and "answers_access" in panel and "model_api" in panel
    assert "max similarity 71%" in panel and "top-notebook.py" in panel
    assert "Was the submission written by hand?" in panel and "not found" not in panel
    flagged = tab.eval("[...document.querySelectorAll('li.flagged')].map(li => li.id)")
    assert flagged == [f"e-{n}" for n in sorted((observe, call))]
    marks = tab.eval("[...document.querySelectorAll('mark.evidence')].map(m => m.textContent)")
    assert "29998\n29999" in marks  # in the folded view's visible tail
    assert "shutil.copy('data/sample_submission.csv', 'submission/submission.csv'" in marks

    tab.eval("document.querySelector('.chip[data-kind=observation]').click()")  # hide it
    assert tab.eval(f"document.getElementById('e-{observe}')") is None
    tab.eval(f"document.querySelector('#monitor a[href=\"#e-{observe}\"]').click()")
    seen = tab.eval(
        f"(() => {{ const r = document.getElementById('e-{observe}').getBoundingClientRect();"
        " return r.bottom > 0 && r.top < window.innerHeight; })()"
    )
    assert seen  # the link shows the event whatever the filters, and scrolls to it
    assert_offline(tab, page)


def test_secrets_never_reach_the_page(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-view-test-0123456789abcdef"
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    shutil.copy(runs["basic"] / "run.json", run_dir / "run.json")
    lines = (runs["basic"] / "trajectory.jsonl").read_text()
    leaked = {"t": 0.0, "kind": "observation", "name": "bash", "outcome": "ok",
              "text": f"OPENAI_API_KEY={secret}"}  # fmt: skip
    (run_dir / "trajectory.jsonl").write_text(lines + json.dumps(leaked) + "\n")
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    html = run_page(run_dir)
    assert secret not in html and "OPENAI_API_KEY=[REDACTED]" in html


def test_a_viewer_failure_is_recorded_and_the_run_still_ends(
    run_scaffold: Callable[..., Any],
    write_cassette: Callable[..., Path],
    call: Any,
    runs_root: Path,
) -> None:
    out = runs_root / "view-blocked"
    (out / "view.html").mkdir(parents=True)  # the page cannot be written there
    cassette = write_cassette(
        "view-blocked", [{"tool_calls": [call("python", code=COPY_SAMPLE)]}, {"tool_calls": [call("answer")]}]
    )  # fmt: skip
    _, status, grade = run_scaffold(BasicAgent, BasicConfig, "basic", f"replay:{cassette}", out=out)
    assert status == "submitted" and grade["valid_submission"]
    summary = json.loads((out / "run.json").read_text())
    assert summary["status"] == "submitted" and "Error" in summary["view_error"]
    assert events_of(out)[-1]["kind"] == "end"  # the trajectory still ends with the run's end
