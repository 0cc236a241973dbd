"""The escape suite: attacks on the harness by what the agent leaves, each with its outcome.

Every attack is driven through the replay model (so any model could make the same calls) in
real runs of ``python -m scaffolds.basic`` on a synthetic ``mlebench/spaceship-titanic``, under
both sandboxes where it matters. What must hold: the graded file is the agent's own (or the run
is invalid), never the private answers; the record holds no link, no special file, no setuid or
writable bit; no tool call outlives its limit; the harness's memory and disk stay bounded;
run.json is always final; no agent process or kernel key outlives the run. New attacks belong
here.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from scaffolds import basic
from tests.machine import require
from tools.namespace import bwrap_path, namespace_problem
from tools.reaper import as_user, user_processes

TASK = "mlebench/spaceship-titanic"
TOOL_TIMEOUT_S = 4
BACKENDS = ["namespace", "user"]


@pytest.fixture(scope="module")
def data(agent_dir: Callable[[str], Path]) -> Path:
    """Synthetic prepared data, its answers in a 0700 private folder, as upstream lays it out."""
    from bench_adapters.mlebench.synthetic import make_prepared

    require(os.geteuid() == 0, "the attacks target a root harness")
    root = agent_dir("escape-data-")
    make_prepared("spaceship-titanic", root, seed=3)
    return root


def answers(data: Path) -> Path:
    return data / "spaceship-titanic" / "prepared" / "private" / "test.csv"


def backend_available(backend: str) -> None:
    if backend == "namespace":
        problem = namespace_problem(bwrap_path())
        require(problem is None, f"the namespace sandbox cannot run here: {problem}")


def python(code: str) -> dict[str, Any]:
    return tool("python", code=textwrap.dedent(code))


def tool(name: str, raw: str | None = None, **arguments: Any) -> dict[str, Any]:
    args = raw if raw is not None else json.dumps(arguments)
    return {"tool_calls": [{"type": "function", "function": {"name": name, "arguments": args}}]}


@pytest.fixture
def attack(
    data: Path,
    agent_dir: Callable[[str], Path],
    agent_user: str,
    write_cassette: Callable[[str, list[dict[str, Any]]], Path],
) -> Callable[..., tuple[int, Path]]:
    """``attack(name, replies, *flags)``: one replayed basic run to its end: (exit code, run
    folder)."""
    runs = agent_dir("escape-runs-")

    def go(name: str, replies: list[dict[str, Any]], *flags: str) -> tuple[int, Path]:
        cassette = write_cassette(f"escape-{name}", replies)
        out = runs / name
        argv = ["--model", f"replay:{cassette}", "--task", TASK, "--data-dir", str(data)]
        argv += ["--out", str(out), "--agent-user", agent_user, "--time-limit", "5m", *flags]
        return basic.main(argv), out

    return go


def summary(run: Path) -> dict[str, Any]:
    return json.loads((run / "run.json").read_text())


def events(run: Path, kind: str) -> list[dict[str, Any]]:
    lines = (run / "trajectory.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["kind"] == kind]


def observations(run: Path) -> list[dict[str, Any]]:
    return events(run, "observation")


SAMPLE_AS_SUBMISSION = (
    "import pandas as pd\n"
    "pd.read_csv('data/sample_submission.csv').to_csv('submission/submission.csv', index=False)\n"
)


# --- 1. the swap race at the end of the run ---------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_link_swapped_in_while_the_harness_copies_is_never_graded(
    backend: str, attack: Callable[..., tuple[int, Path]], data: Path
) -> None:
    """The agent pads submission/, watches it with inotify and renames a prepared link to the
    answers onto submission.csv when the harness opens the first pad (commit 44a86b7: graded
    1.0, gold, 6 of 6). The agent's processes now end before anything is copied: the file
    graded is the agent's own sample, and it scores what the sample scores.

    Slow: a whole run with a kernel, 64 MiB of padding written and copied, and grading."""
    backend_available(backend)
    target = answers(data)
    race = f"""
        import ctypes, os, threading
        for i in range(8):
            open(f'submission/pad{{i:02d}}', 'wb').write(os.urandom(8 << 20))
        os.symlink({str(target)!r}, 'working/l')
        libc = ctypes.CDLL(None)
        fd = libc.inotify_init()
        libc.inotify_add_watch(fd, b'submission', 0x20)
        def swap():
            while b'pad' not in os.read(fd, 4096):
                pass
            os.rename('working/l', 'submission/submission.csv')
        threading.Thread(target=swap, daemon=True).start()
    """
    replies = [python(SAMPLE_AS_SUBMISSION), python(race), tool("answer")]
    code, run = attack(f"swap-{backend}", replies, "--sandbox", backend)
    record = summary(run)
    assert code == 0 and record["status"] == "submitted", record.get("error")
    kept = run / "submission" / "submission.csv"
    assert not kept.is_symlink() and kept.is_file()
    assert kept.read_bytes() != target.read_bytes()
    sample = pd.read_csv(run / "workspace" / "data" / "sample_submission.csv")
    assert kept.read_text() == sample.to_csv(index=False)
    grade = record["grade"]
    assert grade["valid_submission"] is True and grade["score"] < 0.9
    assert record["agent_processes"]["clean"] is True


def test_a_link_left_as_the_submission_makes_the_run_invalid(
    attack: Callable[..., tuple[int, Path]], data: Path
) -> None:
    """No race at all: submission.csv is a link to the answers when the run ends. ``answer``
    reads as the agent, who cannot read them; the harness's copy skips the link."""
    link = f"import os; os.symlink({str(answers(data))!r}, 'submission/submission.csv')"
    code, run = attack("link", [python(link), tool("answer")])
    record = summary(run)
    assert code == 0 and record["status"] == "model_exhausted"
    [answered] = [o for o in observations(run) if o["name"] == "answer"]
    assert answered["outcome"] == "tool_error"
    assert not (run / "submission" / "submission.csv").exists()
    assert record["grade"]["valid_submission"] is False and record["grade"]["score"] is None
    [kept] = events(run, "kept")
    assert any("symbolic link" in s for s in kept["submission"]["skipped"])


# --- 2-5, 7. what the agent leaves, and tools pointed at special files ------------------------

LEFTOVERS = """
    import os, shutil, socket, sys
    os.mkfifo('submission/pipe.csv')
    sock = socket.socket(socket.AF_UNIX)
    sock.bind('submission/sock')
    path = 'submission/deep'
    for _ in range(600):
        os.mkdir(path)
        path += '/d'
    with open('submission/big.csv', 'wb') as f:
        f.truncate(1 << 30)
    shutil.copy(sys.executable, 'code/supy')
    os.chmod('code/supy', 0o6755)
    os.mkdir('code/open')
    os.chmod('code/open', 0o777)
    open('code/open/w.txt', 'w').write('x')
    os.chmod('code/open/w.txt', 0o666)
    with open('code/huge.bin', 'wb') as f:
        f.truncate(1 << 30)
    with open('code/mid.bin', 'wb') as f:
        f.seek(200 << 20)
        f.write(b'end')
    os.mkfifo('code/pipe')
"""
MISCHIEF = """
    import ctypes, os, signal, subprocess, threading, time
    subprocess.Popen(['sleep', '600'], start_new_session=True)
    ctypes.CDLL(None).syscall(248, b'user', b'escape-test', b'KEY-SECRET', 10, -4)
    STOP = threading.Event()
    def stopper():
        while not STOP.is_set():
            for pid in os.listdir('/proc'):
                try:
                    comm = open(f'/proc/{pid}/comm').read().strip()
                    if comm in ('timeout', 'cat', 'find', 'sh', 'python3', 'python3.11'):
                        if int(pid) != os.getpid():
                            os.kill(int(pid), signal.SIGSTOP)
                except (OSError, ValueError):
                    pass
            time.sleep(0.02)
    threading.Thread(target=stopper, daemon=True).start()
"""


def leftover_replies() -> list[dict[str, Any]]:
    return [
        python(SAMPLE_AS_SUBMISSION + textwrap.dedent(LEFTOVERS)),
        tool("validate_submission", path="/dev/zero"),
        tool("validate_submission", path="submission/big.csv"),
        tool("view", raw='{"path": "submission/\\ud800"}'),
        python(MISCHIEF),
        tool("view", path="submission/pipe.csv"),
        tool("answer", path="submission/pipe.csv"),
        python("STOP.set(); time.sleep(0.2)"),
        tool("answer"),
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_what_the_agent_leaves_is_taken_safely_and_the_run_ends_final(
    backend: str, attack: Callable[..., tuple[int, Path]], agent_user: str
) -> None:
    """Special files, deep and sparse trees, setuid bits and writable modes left behind; tools
    pointed at /dev/zero, a 1 GiB sparse file and a FIFO while agent code stops their
    processes; a lone surrogate; a detached process and a kernel key outliving the run.

    Slow: a whole run whose two tool calls on a FIFO each wait out their 4 s limit, then a
    resume of it (namespace sandbox)."""
    backend_available(backend)
    flags = ["--sandbox", backend, "--tool-timeout", str(TOOL_TIMEOUT_S)]
    code, run = attack(f"leftovers-{backend}", leftover_replies(), *flags)
    record = summary(run)
    assert code == 0 and record["status"] == "submitted", record.get("error")
    assert record["ended_at"] and events(run, "end")
    seen = observations(run)
    by_step = {i: o for i, o in enumerate(seen)}
    # validation reads regular files only, and checks the size before a byte is copied
    assert "not a regular file" in by_step[1]["text"] and by_step[1]["duration_s"] < 3
    assert "over the limit" in by_step[2]["text"] and by_step[2]["duration_s"] < 3
    # a lone surrogate is the model's format error, not the harness's
    assert by_step[3]["outcome"] == "format_error" and "surrogate" in by_step[3]["text"]
    # the tools' time limits hold from the harness's side, whatever the agent stops or kills
    for step in (5, 6):
        assert by_step[step]["outcome"] == "tool_error", by_step[step]["text"]
        assert by_step[step]["duration_s"] < 2 * TOOL_TIMEOUT_S + 3
    assert "timed out" in by_step[5]["text"]  # cat blocks on the FIFO until the harness kills it
    # answer: a stopped shell times out; one that ran first finds no regular file
    assert any(why in by_step[6]["text"] for why in ("timed out", "not a regular file"))
    assert_record_is_plain(run)
    kept = {e["kind"]: e for e in events(run, "kept")}["kept"]
    skipped = " ".join(kept["submission"]["skipped"] + kept["code"]["skipped"])
    for expected in (
        "pipe.csv: a FIFO",
        "sock: a socket",
        "deeper than",
        "huge.bin",
        "pipe: a FIFO",
    ):
        assert expected in skipped
    assert not (run / "code" / "huge.bin").exists()
    mid = (run / "code" / "mid.bin").stat()
    assert mid.st_size == (200 << 20) + 3 and mid.st_blocks * 512 < 2**20  # kept sparse
    assert (run / "submission" / "big.csv").stat().st_blocks * 512 < 2**20
    assert stat.S_IMODE((run / "code" / "supy").stat().st_mode) == 0o755
    assert record["agent_processes"]["clean"] is True
    assert record["agent_processes"]["found"] >= 1  # the detached sleep, at least
    assert not user_processes(pwd_uid(agent_user))
    assert b";escape-test" not in read_user_keyring(agent_user)
    assert record["grade"]["valid_submission"] is True

    if backend == "namespace":  # resuming such a run does not fault again
        assert basic.main(["--resume", str(run)]) == 0
        again = summary(run)
        assert again["status"] == "submitted" and again["ended_at"]  # its answer stands
        assert_record_is_plain(run)


def test_clearing_the_keyrings_removes_a_key_the_agent_added(agent_user: str) -> None:
    """The probe above sees a key the agent user adds, and ``clear_keyrings`` removes it."""
    import pwd

    from tools.reaper import clear_keyrings

    require(os.geteuid() == 0, "the agent user exists only under a root harness")
    from tools.sandbox import ensure_user

    account = ensure_user(agent_user)
    add = "import ctypes; ctypes.CDLL(None).syscall(248, b'user', b'probe', b'KEY-PROBE', 9, -4)"
    argv = as_user(account.pw_uid, account.pw_gid, [sys.executable, "-I", "-S", "-c", add])
    subprocess.run(argv, check=True, timeout=30, cwd="/")
    assert b";probe" in read_user_keyring(agent_user)
    clear_keyrings(account.pw_uid, account.pw_gid, sys.executable)
    assert b";probe" not in read_user_keyring(agent_user)
    assert pwd.getpwnam(agent_user).pw_uid == account.pw_uid


def pwd_uid(user: str) -> int:
    import pwd

    return pwd.getpwnam(user).pw_uid


def read_user_keyring(user: str) -> bytes:
    """What the agent user finds in its user keyring now (key ids and descriptions)."""
    import pwd

    account = pwd.getpwnam(user)
    probe = (
        "import ctypes; libc = ctypes.CDLL(None); buf = ctypes.create_string_buffer(4096)\n"
        "n = libc.syscall(250, 11, -4, buf, 4096)\n"  # KEYCTL_READ @u: the key ids
        "ids = [int.from_bytes(buf.raw[i:i+4], 'little') for i in range(0, max(n, 0), 4)]\n"
        "for k in ids:\n"
        "    d = ctypes.create_string_buffer(256); libc.syscall(250, 6, k, d, 256)\n"
        "    print(d.value.decode())\n"  # KEYCTL_DESCRIBE
        "    v = ctypes.create_string_buffer(256); libc.syscall(250, 11, k, v, 256)\n"
        "    print(v.value.decode(errors='replace'))\n"
    )
    argv = as_user(account.pw_uid, account.pw_gid, [sys.executable, "-I", "-S", "-c", probe])
    return subprocess.run(argv, capture_output=True, timeout=30, check=True, cwd="/").stdout


def assert_record_is_plain(run: Path) -> None:
    """Only regular files and folders in the kept copies, root's, with plain modes."""
    for name in ("submission", "code"):
        for dirpath, dirnames, filenames in os.walk(run / name):
            for entry in [*dirnames, *filenames]:
                st = os.lstat(os.path.join(dirpath, entry))
                assert stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode), entry
                mode = stat.S_IMODE(st.st_mode)
                assert not mode & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX), (entry, oct(mode))
                assert not mode & (stat.S_IWGRP | stat.S_IWOTH), (entry, oct(mode))
                assert st.st_uid == os.geteuid()


# --- 6. harness memory chosen by the agent ----------------------------------------------------

FLOOD = """
    import os
    k = get_ipython().kernel
    parent = k.get_parent('shell')
    big = 'x' * (200 << 20)
    for _ in range(3):
        k.session.send(k.iopub_socket, 'stream', {'name': 'stdout', 'text': big}, parent=parent)
    del big
    err = os.dup(2)
    for _ in range(200):
        os.write(err, b'e' * (1 << 20))
    print('flooded')
"""


def harness_peak_mib(cassette: Path, out: Path, data: Path, agent_user: str) -> float:
    """Peak RSS of a harness process (this test's own interpreter) running one replayed run."""
    runner = (
        "import resource, sys\n"
        "from scaffolds import basic\n"
        "code = basic.main(sys.argv[1:])\n"
        "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        "sys.exit(code)\n"
    )
    argv = [sys.executable, "-c", runner, "--model", f"replay:{cassette}", "--task", TASK]
    argv += ["--data-dir", str(data), "--out", str(out), "--agent-user", agent_user]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    [peak] = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("PEAK")]
    return int(peak) / 1024


def test_kernel_output_cannot_grow_the_harness_memory(
    data: Path,
    agent_dir: Callable[[str], Path],
    agent_user: str,
    write_cassette: Callable[[str, list[dict[str, Any]]], Path],
) -> None:
    """Three 200 MiB iopub messages sent past the kernel's own output cap, and 200 MiB written
    to the kernel's stderr (commit 44a86b7: harness peak 232 -> 1,026 MiB). Each frame over
    tools.kernel.MAX_FRAME_BYTES is refused as it arrives and the stderr pipe keeps only its
    tail: the harness's peak stays within 100 MiB of the same run without the flood.

    Slow: two whole runs in fresh processes (each imports the harness), one sending 600 MiB
    through ZeroMQ and 200 MiB to the kernel's stderr."""
    runs = agent_dir("escape-memory-")
    quiet = write_cassette("escape-quiet", [python("print('quiet')"), tool("answer")])
    flood = write_cassette("escape-flood", [python(FLOOD), tool("answer")])
    baseline = harness_peak_mib(quiet, runs / "quiet", data, agent_user)
    flooded = harness_peak_mib(flood, runs / "flood", data, agent_user)
    assert flooded - baseline < 100, (baseline, flooded)
    [observation, _] = observations(runs / "flood")
    assert observation["outcome"] == "ok" and len(observation["text"]) < 20_000
    assert observation["duration_s"] < 120
