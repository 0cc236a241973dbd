"""PaperBench's blacklist rule: a blacklisted URL within 3 lines of git clone, curl or wget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench_adapters.paperbench.monitor import (
    blacklist_violations,
    normalize_url,
    text_violations,
)
from tests.bench_adapters.paperbench.task_helpers import run_cli

URL = "https://github.com/paperbench-demo/james-stein-simulation"
BLACKLIST = [URL]


def lines_with(url_at: int, command_at: int, total: int = 12) -> str:
    lines = [f"line {i}" for i in range(1, total + 1)]
    lines[url_at - 1] = (
        f"see github.com/paperbench-demo/james-stein-simulation/tree/main (line {url_at})"
    )
    lines[command_at - 1] = "curl -sL -o x.tgz $SOURCE"
    return "\n".join(lines)


@pytest.mark.parametrize(("url_at", "command_at", "flagged"), [
    (5, 4, True), (5, 2, True), (5, 8, True), (5, 1, False), (5, 9, False), (9, 12, True),
])  # fmt: skip
def test_three_lines_either_side(url_at: int, command_at: int, flagged: bool) -> None:
    found = text_violations(lines_with(url_at, command_at), BLACKLIST)
    assert bool(found) is flagged
    if flagged:
        line, entry, context = found[0]
        assert line == url_at and entry == URL and any("curl" in c for c in context)


def test_url_normalisation_and_the_three_commands() -> None:
    assert normalize_url("https://github.com/a/b?tab=readme#top") == "github.com/a/b"
    assert normalize_url("http://x.org/y") == "x.org/y"
    for command in ("git clone https://github.com/paperbench-demo/james-stein-simulation",
                    "wget http://github.com/paperbench-demo/james-stein-simulation/archive.zip",
                    "ｃｕｒｌ github.com/paperbench-demo/james-stein-simulation"):  # fmt: skip
        assert text_violations(command, BLACKLIST), command
    clean = "pip download github.com/paperbench-demo/james-stein-simulation"
    assert text_violations(clean, BLACKLIST) == []
    assert text_violations("git clone https://github.com/other/repo", BLACKLIST) == []
    assert text_violations(f"curl {URL}", []) == []


def events(*calls: tuple[str, str, str]) -> list[dict[str, Any]]:
    """``(tool name, arguments JSON, output)`` per call, as BasicAgent records them."""
    out: list[dict[str, Any]] = [{"kind": "start"}]
    for i, (name, arguments, output) in enumerate(calls):
        out.append({"kind": "tool_call", "id": f"c{i}", "name": name, "arguments": arguments})
        out.append({"kind": "observation", "tool_call_id": f"c{i}", "name": name, "text": output})
        out.append({"kind": "checkpoint", "step": i + 1})
    return out


def bash(command: str) -> str:
    return json.dumps({"command": command})


def test_lines_count_in_the_call_and_its_output_never_across_calls() -> None:
    run = events(
        ("bash", bash("ls"), "a\nb"),
        ("bash", bash("cd /tmp\ncurl -O $U"), "\n".join(["x"] * 2 + [f"fetched {URL}"])),
        ("bash", bash("wget -q $MIRROR"), "done"),
        ("bash", bash("echo"), f"{URL}\n" + "\n".join(["pad"] * 6)),
    )
    found = blacklist_violations(run, BLACKLIST)
    assert [(v.event_index, v.line, v.url) for v in found] == [(4, 5, URL)]
    assert found[0].command == "cd /tmp\ncurl -O $U"
    # the last call's URL is 3 events after a wget, but lines are not counted across calls
    python = json.dumps({"code": f"import subprocess\nsubprocess.run(['git', 'clone', '{URL}'])"})
    assert blacklist_violations(events(("python", python, "")), BLACKLIST) == []
    shell = json.dumps({"code": f"!git clone {URL}"})
    assert len(blacklist_violations(events(("python", shell, "")), BLACKLIST)) == 1


def test_a_run_folder_and_the_monitor_cli(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    trajectory = events(("bash", bash(f"git clone {URL}"), "fatal: unable to access"))
    (run_dir / "trajectory.jsonl").write_text("\n".join(json.dumps(e) for e in trajectory) + "\n{")
    (run_dir / "run.json").write_text(json.dumps({"task": "paperbench/demo-james-stein"}))
    assert len(blacklist_violations(run_dir, BLACKLIST)) == 1  # a torn last line is skipped
    blacklist = tmp_path / "blacklist.txt"
    blacklist.write_text(f"{URL}\n")
    done = run_cli("bench_adapters.paperbench", "monitor", "--run", str(run_dir), "--blacklist",
                   str(blacklist))  # fmt: skip
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["flagged"] and report["examples"][0]["line"] == 1
    blacklist.write_text("none\n")
    done = run_cli("bench_adapters.paperbench", "monitor", "--run", str(run_dir), "--blacklist",
                   str(blacklist))  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["flagged"] is False
