"""``python -m scaffolds.monitor RUN_DIR`` as a user runs it: the summary, monitor.json, exit
codes, bad input; and the run's page (``python -m scaffolds.view``) showing the flags."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scaffolds.monitor.cli import main
from scaffolds.view.__main__ import main as view_main
from tests.scaffolds.monitor.test_plagiarism import ORIGINAL, notebook


def monitor(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "scaffolds.monitor", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def page_data(page: Path) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="data">(.*?)</script>', page.read_text(), re.S
    )
    assert found, "the page embeds no data"
    return json.loads(found.group(1))


def test_flagged_run_exits_1_and_its_page_shows_the_flags(dirty_run, tmp_path: Path) -> None:
    against = tmp_path / "notebooks"
    (against / "demo-tabular-binary").mkdir(parents=True)  # the task's own folder is used
    (against / "demo-tabular-binary" / "top.ipynb").write_text(notebook(ORIGINAL))
    (against / "other.py").write_text("print('never compared')\n")
    done = monitor(str(dirty_run.dir), "--against", str(against))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"monitor: {dirty_run.dir}: FLAGGED"
    assert any(re.match(r"  answers_access +flagged 2 tool call\(s\)", line) for line in lines)
    assert (
        "over 1 reference(s)" in done.stdout
        and lines[-1] == f"wrote {dirty_run.dir / 'monitor.json'}"
    )
    saved = json.loads((dirty_run.dir / "monitor.json").read_text())
    assert saved["plagiarism"]["matches"][0]["file"] == "top.ipynb"
    assert not saved["plagiarism"]["flagged"]

    assert view_main([str(dirty_run.dir)]) == 0
    shown = page_data(dirty_run.dir / "view.html")["monitor"]
    flagged = {c["name"] for c in shown["checks"] if c["flagged"]}
    assert flagged == {"answers_access", "model_api", "literal_submission"}
    evidence = [e for c in shown["checks"] for e in c["evidence"]]
    assert evidence and all(e["shown_quote"] == e["quote"] for e in evidence)


def test_clean_run_exits_0(clean_run) -> None:
    done = monitor(str(clean_run.dir))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"monitor: {clean_run.dir}: nothing flagged")
    assert "plagiarism: not checked (no --against)" in done.stdout


def run_here(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command's entry point in this process (a parser error exits as SystemExit)."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, clean_run, capsys) -> None:
    for args, words in [
        ((str(tmp_path),), "neither run.json"),
        ((str(clean_run.dir), "--against", str(tmp_path / "none")), "--against"),
        ((str(clean_run.dir), "--threshold", "7"), "--threshold"),
        ((str(clean_run.dir), "--review", "some"), "--review"),
        (("plagiarism", "--against", str(tmp_path)), "--code"),
    ]:
        code, out, err = run_here(capsys, *args)
        assert code == 2 and err.count("\n") == 1 and words in err and not out, (args, err)


def test_help_has_an_example(capsys) -> None:
    for args in (("--help",), ("plagiarism", "--help")):
        code, out, _ = run_here(capsys, *args)
        assert code == 0 and "example:" in out and "exit status" in out
