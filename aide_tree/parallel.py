"""AIDE with several nodes in flight (``--parallel-nodes N``): each in its own kernel and working
folder, the policy deciding the next node as soon as a lane is free.

The schedule is deterministic, so that a replay gives the same journal however the threads
run: node ``k`` is decided once nodes ``0 .. k-N`` have completed, from the journal of exactly
those nodes (``prefix``), with the decisions for ``k-N+1 .. k-1`` as the set in flight (even
when some of them have already completed). With N = 1 that is one node at a time, as ``Aide``
searches. Nodes are appended to the journal (format 3, keyed by id) as they complete, with
their start and end times; the best is the best completed (the lowest id on ties).

Lane 0 works in the workspace itself; lane ``i`` in ``nodes/<i>/``, a folder with its own
``submission/`` and ``working/`` and a link ``data -> ../../data``, so a node's code uses the
same relative paths in any lane. Each lane's kernel gets its share of the machine
(``aide_tree.resources``); starting them is not charged to the agent's time (the wall clock
counts it), as the run's first kernel starts before its clock. Steps, time and cost count across all nodes; at a limit the nodes in
flight are stopped (``node_stopped`` events; they are not journal nodes). A resumed run replays
the schedule over the journal: completed nodes are kept, the ones that were in flight run again.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from aide_tree.agent import BEST_MODE, Aide, Lane, Tally
from aide_tree.journal import KEYED_VERSION, Journal, JournalError, Node
from aide_tree.policies import Decision
from aide_tree.resources import describe, kernel_env, shares
from aide_tree.submissions import Submissions
from scaffolds.messages import ModelError
from scaffolds.record import for_node, write_atomic
from scaffolds.replay import ReplayModel
from scaffolds.runtime import Run

WAIT_S = 0.5
"""Longest wait for a node to complete before the limits are checked again."""
STOP_GRACE_S = 10.0
"""How long a stopped node's thread may take to notice, once its kernel is interrupted."""
LANES_DIR = "nodes"


class Stopped(Exception):
    """The search stopped while this node was in flight."""


class ParallelAide(Aide):
    """``Aide`` with up to ``config.parallel_nodes`` nodes in flight."""

    journal_version = KEYED_VERSION

    def __init__(self, run: Run):
        self.width = max(1, getattr(run.config, "parallel_nodes", 1))
        self.prefix: Journal | None = None
        super().__init__(run)
        for session in (run.session, self.feedback):
            for model in (session.model, getattr(session.model, "inner", None)):
                if isinstance(model, ReplayModel) and not model.is_keyed:
                    raise ModelError(
                        f"{model.path} answers in order; with several nodes in flight a replay "
                        "needs a cassette keyed by node and call (aide_tree.cassette.keyed)"
                    )
        self.prefix = Journal(self.journal.lower_is_better)  # the policy's view: ids 0..k-N
        self.decisions: dict[int, Decision] = {}  # decided, not yet in the prefix
        self.done: dict[int, Node] = {}  # completed, not yet in the prefix
        self.kept = {node.id: node for node in self.journal}  # completed before a resume
        self.next_id = 0
        self.running: dict[int, threading.Thread] = {}
        self.results: queue.Queue[tuple[int, Lane, Node | BaseException]] = queue.Queue()
        self.stopping = threading.Event()
        self._local = threading.local()
        setup = time.monotonic()
        self.lanes = self.open_lanes()
        run.budget.exclude(time.monotonic() - setup)  # as the run's own kernel's start is
        self.free = list(reversed(self.lanes))

    # the schedule

    def search(self) -> str:
        try:
            while True:
                self.run.budget.check()
                self.dispatch()
                if not self.running:
                    raise JournalError(
                        "the parallel search has nothing in flight and cannot decide"
                    )
                self.collect()
        finally:
            self.stop()
            self.close()

    def dispatch(self) -> None:
        """Decide and start nodes while a lane is free and the schedule allows."""
        while self.free and self.may_decide(self.next_id):
            node_id = self.next_id
            self.next_id += 1
            target = max(0, node_id - self.width + 1)
            prefix = self.advance(target)
            in_flight = [self.decisions[i] for i in range(target, node_id)]
            if in_flight:
                decision = self.decide(prefix, self.config, self.run.rng, in_flight)
            else:
                decision = self.decide(prefix, self.config, self.run.rng)
            self.decisions[node_id] = decision
            if node_id in self.kept:
                self.done[node_id] = check_kept(self.kept.pop(node_id), decision)
                continue
            self.start(node_id, decision, prefix)

    def may_decide(self, node_id: int) -> bool:
        """Within the step limit, and every node up to ``node_id - N`` completed."""
        limit = self.run.budget.max_steps
        if limit is not None and node_id >= limit:
            return False
        assert self.prefix is not None
        return all(i in self.done for i in range(len(self.prefix), node_id - self.width + 1))

    def advance(self, target: int) -> Journal:
        """The prefix journal holding exactly nodes ``0 .. target-1``."""
        assert self.prefix is not None
        while len(self.prefix) < target:
            node = self.done.pop(len(self.prefix))
            self.prefix.add(node)
            del self.decisions[node.id]
        return self.prefix

    def start(self, node_id: int, decision: Decision, prefix: Journal) -> None:
        messages = self.operator_prompt(decision, prefix)  # built here: the prefix moves on
        lane = self.free.pop()
        thread = threading.Thread(
            target=self.work,
            args=(node_id, decision, messages, lane),
            name=f"aide-node-{node_id}",
            daemon=True,
        )
        self.running[node_id] = thread
        thread.start()

    def work(self, node_id: int, decision: Decision, messages: Any, lane: Lane) -> None:
        """A node's thread: write, run and review it; hand the node (or the error) back."""
        started = time.time()
        result: Node | BaseException
        with for_node(node_id):
            self._local.tally = Tally()
            try:
                node = self.make(node_id, decision, node_id + 1, messages, lane)
                result = replace(node, started_at=round(started, 3), ended_at=round(time.time(), 3))
            except BaseException as exc:  # the main thread re-raises it
                result = exc
        self.results.put((node_id, lane, result))

    def collect(self) -> None:
        """Wait for a node to complete (at most ``WAIT_S``), then record all that have; a
        node's error is raised once the others that completed are recorded."""
        try:
            items = [self.results.get(timeout=max(0.01, min(WAIT_S, self.run.budget.time_left())))]
        except queue.Empty:
            return
        while not self.results.empty():
            items.append(self.results.get_nowait())
        errors = []
        for node_id, lane, result in items:
            del self.running[node_id]
            self.free.append(lane)
            if isinstance(result, BaseException):
                errors.append(result)
                continue
            self.record(result)
            self.done[node_id] = result
        if errors:
            raise errors[0]

    def stop(self) -> None:
        """Stop the nodes in flight: record each, interrupt its code, let its thread end."""
        self.stopping.set()
        lanes = {id(lane) for lane in self.free}
        for node_id in sorted(self.running):
            decision = self.decisions[node_id]
            self.run.record.event("node_stopped", id=node_id, operator=decision.operator)
        for lane in self.lanes:
            if id(lane) not in lanes:
                lane.kernel.interrupt()
        deadline = time.monotonic() + STOP_GRACE_S
        for thread in self.running.values():
            thread.join(max(0.0, deadline - time.monotonic()))

    # a node's thread

    def tally(self) -> Tally:
        tally: Tally = self._local.tally
        return tally

    def execute(self, node: Node, lane: Lane | None = None) -> Node:
        if self.stopping.is_set():
            raise Stopped(f"node {node.id}")
        return super().execute(node, lane)

    def judge(self, node: Node) -> Node:
        if self.stopping.is_set():
            raise Stopped(f"node {node.id}")
        return super().judge(node)

    # set-up and end

    def continue_journal(self) -> None:
        """Resume: the schedule is replayed over the journal (``dispatch`` keeps its nodes),
        so only the step count and the best submission are restored here."""
        self.run.budget.steps = len(self.journal)
        best = self.journal.best()
        if best is not None:
            self.submissions.keep(best.id)
            write_atomic(self.run.dir / "best_solution.py", best.code, BEST_MODE)
        self.run.record.event(
            "resume", nodes=len(self.journal), node_ids=sorted(n.id for n in self.journal)
        )

    def open_lanes(self) -> list[Lane]:
        """One lane a node in flight: lane 0 in the workspace, the others in ``nodes/<i>``,
        each kernel started with its share of the machine."""
        from tools import PythonKernel

        run, config = self.run, self.config
        gpus = visible_gpus(run.sandbox.env)
        cut = shares(self.width, os.cpu_count() or 1, gpus, config.node_cpus, config.node_gpus)
        run.record.update(node_resources=describe(cut))
        run.record.event("node_resources", shares=[s.__dict__ for s in cut], text=describe(cut))
        lanes = []
        for i, share in enumerate(cut):
            folder = run.workspace.root if i == 0 else self.lane_folder(i)
            env = kernel_env(share, sees_gpus=bool(gpus))
            kernel = PythonKernel(run.sandbox, cwd=folder, output_cap=config.output_cap, env=env)
            kernel.start()
            if i == 0:  # the run's kernel, restarted with its share
                if run.kernel is not None:
                    run.kernel.shutdown()
                run.kernel = kernel
                lanes.append(Lane(kernel, self.submissions))
                continue
            uid = run.sandbox.uid if run.sandbox.isolated else None
            submissions = Submissions(
                run.workspace.root, run.task.submission_relpath, run.validator("harness"),
                run.dir, uid, inside=(LANES_DIR, str(i)),
            )  # fmt: skip
            lanes.append(Lane(kernel, submissions))
        return lanes

    def lane_folder(self, i: int) -> Path:
        from tools.ownership import give_folders

        root = self.run.workspace.root
        folder = root / LANES_DIR / str(i)
        parts = [f"{LANES_DIR}/{i}/submission", f"{LANES_DIR}/{i}/working"]
        if self.run.sandbox.isolated:
            give_folders(root, parts, self.run.sandbox.uid, self.run.sandbox.gid)
        else:
            for part in parts:
                (root / part).mkdir(parents=True, exist_ok=True)
        # the link is made from descriptors: a lane folder the agent swapped for a link (before
        # a resume) never leads root to write elsewhere
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for part in (LANES_DIR, str(i)):
                sub = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = sub
            with contextlib.suppress(FileExistsError):
                os.symlink("../../data", "data", dir_fd=fd)
        finally:
            os.close(fd)
        return folder

    def close(self) -> None:
        for lane in self.lanes[1:]:
            lane.kernel.shutdown()
        super().close()


def check_kept(node: Node, decision: Decision) -> Node:
    """A node of the journal a resumed schedule reaches again: it must be what was decided."""
    second = None if decision.second_parent is None else decision.second_parent.id
    first = None if decision.parent is None else decision.parent.id
    if (node.operator, node.parent_id, node.second_parent_id) != (decision.operator, first, second):
        raise JournalError(
            f"node {node.id} in journal.jsonl was {node.operator} of {node.parent_id}, but the "
            f"resumed search decides {decision.operator} of {first}: were the settings changed?"
        )
    return node


def visible_gpus(agent_env: dict[str, str]) -> list[str]:
    """The GPU ids the agent's kernels may use: none when the sandbox hides them, else those
    ``CUDA_VISIBLE_DEVICES`` names, else every GPU the machine has."""
    if agent_env.get("CUDA_VISIBLE_DEVICES") == "":
        return []
    named = os.environ.get("CUDA_VISIBLE_DEVICES")
    if named is not None:
        return [g for g in named.split(",") if g.strip()]
    from tools import gpu_names

    return [str(i) for i in range(len(gpu_names()))]
