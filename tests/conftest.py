"""Fixtures shared across the test folders.

Folders the agent user must enter live under world-traversable temporary directories: pytest's
``tmp_path`` is 0700, which that user could not pass through. Costly read-only data is built
once per run and shared by every pytest-xdist worker (``built_once``, tests/parallel.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scaffolds.entry import draw
from scaffolds.protocols import Model
from scaffolds.runtime import Run, execute, open_run

pytest_plugins = ["tests.parallel"]

DEMO_TASK = "demo/tabular-binary"
LOCAL_WINDOW = 2048
REPO = Path(__file__).resolve().parents[1]
MLEBENCH_SEED = 11


@pytest.fixture(scope="session")
def agent_dir() -> Iterator[Callable[[str], Path]]:
    """``agent_dir("prefix-")``: a new temporary folder the agent user can pass through."""
    made: list[Path] = []

    def make(prefix: str) -> Path:
        path = Path(tempfile.mkdtemp(prefix=prefix))
        os.chmod(path, 0o755)
        made.append(path)
        return path

    yield make
    for path in made:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def agent_user() -> str:
    """The agent user this pytest process's sandboxes and runs use by default: its own
    ``agent-g<k>`` when root (tests/parallel.py), else ``agent``."""
    from tools.agent_env import default_agent_user

    return default_agent_user()


@pytest.fixture(scope="session")
def local_model(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., Model]]:
    """``local_model(max_tokens=...)``: a litellm client of the real local model (llama.cpp +
    SmolLM2-135M over HTTP); one server serves the whole run (every worker under xdist)."""
    from contextlib import nullcontext

    from scaffolds.local_llm import LocalLLM
    from scaffolds.model import LiteLLMModel, ModelConfig
    from tests.parallel import shared_local_model

    shared = shared_local_model(tmp_path_factory, LOCAL_WINDOW)
    with nullcontext(shared) if shared else LocalLLM.start(n_ctx=LOCAL_WINDOW) as llm:

        def make(max_tokens: int, **options: Any) -> Model:
            settings = {"temperature": 0.0, "request_timeout_s": 300, "max_attempts": 2, **options}
            return LiteLLMModel(
                ModelConfig(
                    model=llm.model,
                    api_base=llm.api_base,
                    context_window=LOCAL_WINDOW,
                    max_output_tokens=max_tokens,
                    **settings,
                ),
                watch=llm,
            )

        yield make


@pytest.fixture(scope="session")
def call() -> Callable[..., dict[str, Any]]:
    """``call("python", code="print(1)")``: one tool call in the OpenAI shape (``raw=`` for
    arguments that are not a JSON object)."""

    def make(name: str, raw: str | None = None, **arguments: Any) -> dict[str, Any]:
        args = raw if raw is not None else json.dumps(arguments)
        return {"type": "function", "function": {"name": name, "arguments": args}}

    return make


@pytest.fixture(scope="session")
def runs_root(agent_dir: Callable[[str], Path]) -> Path:
    return agent_dir("scaffold-runs-")


@pytest.fixture(scope="session")
def write_cassette(runs_root: Path) -> Callable[[str, list[dict[str, Any]]], Path]:
    """Write assistant replies (``{"content": ..., "tool_calls": [...]}``) as a replay file."""

    def write(name: str, replies: list[dict[str, Any]]) -> Path:
        path = runs_root / f"{name}.jsonl"
        lines = [json.dumps({"role": "assistant", "content": None, **r}) for r in replies]
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


@pytest.fixture(scope="session")
def run_scaffold(runs_root: Path) -> Callable[..., tuple[Run, str, dict[str, Any]]]:
    """``run_scaffold(Agent, ConfigCls, name, model, **options)``: one run on the demo task to
    its end, as ``(run, status, grade)``. ``model`` is a model object or a model string."""
    counter = iter(range(10**6))

    def run(
        agent: Callable[[Any], Any],
        config_cls: type[Any],
        name: str,
        model: Model | str,
        **options: Any,
    ) -> tuple[Run, str, dict[str, Any]]:
        model_name = model if isinstance(model, str) else model.name
        options.setdefault("out", runs_root / f"run-{next(counter)}")
        options.setdefault("task", DEMO_TASK)
        config = config_cls(model=model_name, **options)
        opened = open_run(config, name, None if isinstance(model, str) else model)
        status, grade = execute(opened, agent(config))
        draw(opened)  # as the scaffold's command does once the record is final
        return opened, status, grade

    return run


@pytest.fixture(scope="session")
def events() -> Callable[[Run, str], list[dict[str, Any]]]:
    """The run's trajectory events of one kind."""

    def of_kind(run: Run, kind: str) -> list[dict[str, Any]]:
        return [e for e in run.record.events() if e["kind"] == kind]

    return of_kind


# --- benchmark data: demo tasks, synthetic MLE-bench competitions, stand-in leaderboards -----


@pytest.fixture
def run_cli(request: pytest.FixtureRequest) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run_cli(*args, module=..., env=...)``: ``python -m <module> ARGS`` in a fresh process,
    output captured as text; ``module`` defaults to the package the test's folder mirrors
    (``tests/baselines/...`` -> ``baselines``)."""
    default = request.path.relative_to(Path(__file__).parent).parts[0]

    def run(
        *args: str, module: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", module or default, *args],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, "COLUMNS": "200", **(env or {})},
            timeout=600,
        )

    return run


@pytest.fixture(scope="session")
def reference() -> Path:
    """The shared reference data (real leaderboards, split lists); tests only, never the product."""
    path = REPO.parent / "shared" / "reference"
    assert path.is_dir(), f"missing shared reference data at {path}"
    return path


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo cache with every demo task generated (each with its synthetic leaderboard)."""
    from bench_adapters import resolve_task
    from bench_adapters.demo import DEMO_IDS
    from tests.parallel import built_once

    def build(root: Path) -> None:
        for task_id in DEMO_IDS:
            resolve_task(f"demo/{task_id}", demo_dir=root)

    return built_once(tmp_path_factory, "demo-cache", build)


@pytest.fixture(scope="session")
def mlebench_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Synthetic prepared data in upstream's layout, small sizes, for every competition with a
    generator (the CPU-only ones and the Lite split)."""
    from bench_adapters.mlebench.synthetic import make_prepared, synthetic_competitions
    from tests.parallel import built_once

    def build(data: Path) -> None:
        for cid in synthetic_competitions():
            make_prepared(cid, data, seed=MLEBENCH_SEED)

    return built_once(tmp_path_factory, "mlebench-data", build)


@pytest.fixture(scope="session")
def mlebench_checkout(tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path) -> Path:
    """A stand-in mle-bench checkout for every competition in ``mlebench_data``: config,
    description and a 150-team leaderboard from the answers' score down to the sample's, with
    a median a sound model beats."""
    from bench_adapters.mlebench.synthetic import synthetic_competitions
    from bench_adapters.mlebench.synthetic.leaderboards import write_checkout
    from tests.parallel import built_once

    def build(root: Path) -> None:
        write_checkout(root, mlebench_data, synthetic_competitions())

    return built_once(tmp_path_factory, "mle-bench", build)


@pytest.fixture(scope="session")
def gold_paths(tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path) -> dict[str, Path]:
    """Each competition's answers in submission form, as a CSV file."""
    from bench_adapters.mlebench.synthetic import answers_as_submission, synthetic_competitions
    from tests.parallel import built_once

    def build(root: Path) -> None:
        for cid in synthetic_competitions():
            answers_as_submission(cid, mlebench_data).to_csv(root / f"{cid}-gold.csv", index=False)

    root = built_once(tmp_path_factory, "gold", build)
    return {cid: root / f"{cid}-gold.csv" for cid in synthetic_competitions()}


@pytest.fixture(scope="session")
def lite_reports() -> dict[str, dict[str, Any]]:
    """The Lite smoke checks this pytest process has read, by competition (``lite_check``)."""
    return {}


@pytest.fixture
def lite_check(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    mlebench_data: Path,
    mlebench_checkout: Path,
    lite_reports: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """``python -m baselines check --tasks <...> --smoke --pretrained none --device cpu`` on
    the synthetic data and stand-in leaderboards: of the test module's own Lite competition
    (its ``CID``), or of the whole Lite split where the module names none. Each competition is
    checked once per test run, by whichever worker first needs it, so the 22 smoke runs spread
    over the workers instead of one worker running all 22 while the others wait on it. The
    report is ``check.json``'s, with ``out`` (the folder of each task's files) added; the
    split's is the 22 reports merged (tasks, failures, the failed count)."""
    from bench_adapters.mlebench import split_ids

    def checked(cid: str) -> dict[str, Any]:
        if cid not in lite_reports:  # a plain pytest run has no share: built here, once
            lite_reports[cid] = lite_report(tmp_path_factory, cid, mlebench_data, mlebench_checkout)
        return lite_reports[cid]

    cid = getattr(request.module, "CID", None)
    if cid is not None:
        return checked(cid)
    reports = [checked(c) for c in split_ids("lite")]
    return {
        "tasks": [t for r in reports for t in r["tasks"]],
        "failures": [f for r in reports for f in r["failures"]],
        "summary": {"failed": sum(r["summary"]["failed"] for r in reports)},
        "smoke": all(r["smoke"] for r in reports),
    }


def lite_report(
    factory: pytest.TempPathFactory, cid: str, data: Path, checkout: Path
) -> dict[str, Any]:
    """One Lite competition's smoke check, built once for the run (``lite_check``)."""
    from baselines.check import CheckOptions, check_tasks
    from tests.parallel import built_once

    def build(out: Path) -> None:
        options = CheckOptions(
            out_dir=out,
            task_options={"data_dir": data, "mlebench_dir": checkout},
            smoke=True,
            threads=2,
            device="cpu",
            pretrained="none",
        )
        report = check_tasks([f"mlebench/{cid}"], options).to_dict()
        (out / "fixture-report.json").write_text(json.dumps(report))

    out = built_once(factory, f"lite-check-{cid}", build)
    return {**json.loads((out / "fixture-report.json").read_text()), "out": out}
