"""tree.html opened in headless Chromium: every node drawn, no script errors, no network."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from aide_tree import Journal, Node, write_tree

NASTY = 'print("</script><script>alert(1)</script> & ünïcode")\n'


def chromium() -> str:
    """Debian's chromium; installed here if missing and we may (CI's .ci/run installs it too)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"],
            env=env,
            capture_output=True,
            timeout=900,
            check=False,
        )
        found = shutil.which("chromium")
    if found is None:
        pytest.fail("chromium is not installed: apt-get install -y chromium")
    return found


def browse(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        page.as_uri(),
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def make_journal(n: int) -> Journal:
    journal = Journal(lower_is_better=True)
    for i in range(n):
        parent = None if i < 3 else (i - 1) // 2
        buggy = i % 4 == 1
        operator = (
            "draft" if parent is None else ("debug" if journal[parent].is_buggy else "improve")
        )
        journal.add(
            Node(
                id=i,
                parent_id=parent,
                step=i + 1,
                operator=operator,
                plan=f"Plan {i}.",
                code=NASTY if i == 5 else ("" if i == 9 else f"print({i})\n"),
                output=f"score {i}",
                is_buggy=buggy,
                metric=None if buggy else 1.0 / (i + 1),
            )
        )
    crossing = Node(
        id=n,
        parent_id=4,
        second_parent_id=7,
        step=n + 1,
        operator="crossover",
        plan="Combine #4 and #7.",
        code="print('both')\n",
        is_buggy=False,
        metric=0.5,
    )
    journal.add(crossing)
    return journal


def test_every_node_is_drawn_without_script_errors(tmp_path: Path) -> None:
    journal = make_journal(14)  # and a crossover node, #14
    page = tmp_path / "tree.html"
    write_tree(journal, "demo/tabular-regression", page, "evolutionary")
    source = page.read_text()
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", source)  # nothing to fetch

    dom = browse(page, tmp_path / "profile", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "Uncaught" not in dom.stderr and not re.search(r"CONSOLE[:(]\d+.*[Ee]rror", dom.stderr)
    html = dom.stdout
    assert f'data-rendered="{len(journal)}"' in html
    assert re.search(r'<div id="errors"></div>', html)
    for node in journal:
        card = re.search(
            rf'<div class="node[^"]*" id="node-{node.id}" data-node-id="{node.id}">(.*?)</details>',
            html,
            re.S,
        )
        assert card, f"node {node.id} not drawn"
        assert node.operator in card.group(1)
        assert ("buggy" if node.is_buggy else "ok") in card.group(1)
    best = journal.best()
    assert best is not None and best.id == 12  # the lowest metric: lower is better here
    assert 'class="node best" id="node-12"' in html
    assert (
        "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; ünïcode" in html
    )  # shown as text
    assert "code (1 line)" in html and "no code" in html
    assert "evolutionary search · 15 nodes" in html
    # the crossover: nested under its first parent, linked and joined by a line to its second
    sibling = r'id="node-10"(?:(?!<li>).)*</li><li><div class="node[^"]*" id="node-14"'
    assert re.search(sibling, html, re.S)  # after node 4's other child, #10
    assert re.search(r'<a class="cross" href="#node-7"[^>]*>× #7</a>', html)
    assert 'data-crossover-edges="1"' in html
    assert re.search(r'<path d="M[\d.]+,[\d.]+ C[^"]+" data-from="7" data-to="14">', html)

    bottom = int(re.search(r'data-bottom="(\d+)"', html).group(1))  # type: ignore[union-attr]
    height = bottom + 40
    shot = tmp_path / "tree.png"
    run = browse(page, tmp_path / "profile", f"--screenshot={shot}", f"--window-size=1280,{height}")
    assert run.returncode == 0 and shot.is_file(), run.stderr[-2000:]
    width, got_height = struct.unpack(">II", shot.read_bytes()[16:24])  # PNG header: IHDR size
    assert (width, got_height) == (1280, height)  # every node lies inside the screenshot
    assert shot.stat().st_size > 20_000  # drawn cards, not a blank page
