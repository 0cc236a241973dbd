"""``keep_tree`` and hard links: a second name for a file the agent does not own (the private
answers, where ``fs.protected_hardlinks`` is off) is skipped; the agent's own hard links, and
every file when no agent user is given, are kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.keep import keep_tree

AGENT_UID = 65534  # nobody: a user that is not the harness's


@pytest.mark.skipif(os.geteuid() != 0, reason="making files of another user needs root")
def test_a_hard_link_to_a_file_the_agent_does_not_own_is_not_kept(tmp_path: Path) -> None:
    answers = tmp_path / "private" / "test.csv"
    answers.parent.mkdir()
    answers.write_text("id,target\n1,0.123\n")
    os.chmod(answers, 0o600)
    submission = tmp_path / "workspace" / "submission"
    submission.mkdir(parents=True)
    os.link(answers, submission / "submission.csv")  # what the attack plants
    own = submission / "notes.txt"
    own.write_text("mine\n")
    os.chown(own, AGENT_UID, AGENT_UID)
    os.link(own, submission / "notes-copy.txt")  # the agent's own file under two names
    single = submission / "written-by-harness.csv"
    single.write_text("id,target\n1,0.5\n")  # one name: the harness's own (AIDE's best node)

    kept = keep_tree(submission.parent, "submission", tmp_path / "kept", agent_uid=AGENT_UID)
    names = sorted(p.name for p in (tmp_path / "kept").iterdir())
    assert names == ["notes-copy.txt", "notes.txt", "written-by-harness.csv"]
    assert kept.skipped == [
        "submission.csv: a hard link to a file of uid 0, not the agent's: not copied"
    ]

    everything = keep_tree(submission.parent, "submission", tmp_path / "all")
    assert everything.files == 4 and everything.skipped == []  # isolation off: nothing to tell
