"""The grid report shows TAM runs as the paper's Tables 2-4, one row per scaffold x model."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from scaffolds.grid.results import GRADE_FIELDS
from scaffolds.report import write_report
from tests.bench_adapters.tam.test_aggregate import paper_rows


def row(scaffold: str, model: str, task: str, seed: int, **fields: object) -> dict[str, object]:
    return {"format_version": 1, "run": f"{scaffold}__{model}__{task}__seed{seed}", "scaffold": scaffold,
            "model": model, "task": task, "seed": seed, "status": "submitted", **fields}  # fmt: skip


def test_tam_runs_get_tables_2_to_4(tmp_path: Path) -> None:
    assert {"rank_pct", "constraint_pass"} <= set(GRADE_FIELDS)  # results rows carry them
    rows = [row("aide", "gpt-4.1", str(r["task"]), 0, **{k: v for k, v in r.items() if k != "task"})
            for r in paper_rows()]  # fmt: skip
    rows += [
        row("basic", "m", "tam/text/easy", 0, made_submission=True, valid_submission=True,
            rank_pct=0.2, constraint_pass=1.0),
        row("basic", "m", "tam/text/easy", 1, made_submission=True, valid_submission=True,
            rank_pct=0.4, constraint_pass=0.5),
        row("basic", "m", "tam/graph/easy", 0, made_submission=True, valid_submission=True,
            rank_pct=0.1, constraint_pass=1.0, status="crashed"),
    ]  # fmt: skip
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    written = write_report(tmp_path, plots=False)
    assert tmp_path / "tam_summary.csv" in written
    md = (tmp_path / "summary.md").read_text()
    assert "## TAM-Bench (the paper's Tables 2-4)" in md
    lines = md.splitlines()
    table2 = lines[lines.index("### Submissions, constraints and rank (Table 2)") + 4]
    assert table2.startswith("| aide | `gpt-4.1` | 72.2 | 55.6 | n/a | 86.7 | 86.7 |")
    table3 = lines[lines.index("### Average rank by difficulty (%, Table 3)") + 4]
    assert table3 == "| aide | `gpt-4.1` | 76.0 | 89.0 | 95.0 |"
    table4 = lines[lines.index("### Average rank by modality (%, Table 4)") + 4]
    assert table4 == "| aide | `gpt-4.1` | 82.0 | 71.0 | 92.0 | 89.0 | 100.0 | 86.0 |"
    # basic: two seeds over text/easy and graph/easy; the crashed graph run counts as failed
    # made 1 of 2 tasks each seed; constraint pass per seed (1.0 + 0)/2 and (0.5 + 0)/2; rank
    # per seed (0.2 + 1)/2 and (0.4 + 1)/2
    assert (
        "| basic | `m` | 50.0 ± 0.0 | 50.0 ± 0.0 | 37.5 ± 12.5 | 65.0 ± 5.0 | 65.0 ± 5.0 |" in lines
    )
    with (tmp_path / "tam_summary.csv").open() as f:
        table = {r["scaffold"]: r for r in csv.DictReader(f)}
    assert float(table["aide"]["rank_hard_mean"]) == 95.0 and table["basic"]["seeds"] == "2"


def test_a_grid_without_tam_runs_has_no_tam_section(tmp_path: Path) -> None:
    rows = [row("aide", "m", "demo/tabular-binary", 0, made_submission=True, valid_submission=True)]
    (tmp_path / "results.jsonl").write_text(json.dumps(rows[0]) + "\n")
    written = write_report(tmp_path, plots=False)
    assert "TAM-Bench" not in (tmp_path / "summary.md").read_text()
    assert not (tmp_path / "tam_summary.csv").exists() and len(written) == 2


def test_aide_policies_are_separate_rows(tmp_path: Path) -> None:
    rows = [
        row("aide", "m", "tam/text/easy", 0, policy="greedy", made_submission=True,
            valid_submission=True, rank_pct=0.2),
        row("aide", "m", "tam/text/easy", 0, policy="mcts", made_submission=True,
            valid_submission=True, rank_pct=0.6),
    ]  # fmt: skip
    for r in rows:  # run names carry the arm, as the grid names them
        r["run"] = f"aide-{r['policy']}__m__tam-text-easy__seed0"
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    write_report(tmp_path, plots=False)
    lines = (tmp_path / "summary.md").read_text().splitlines()
    table3 = lines.index("### Average rank by difficulty (%, Table 3)")
    shown = sorted(lines[table3 + 4 : table3 + 6])
    assert shown[0].startswith("| aide-greedy | `m` | 20.0 |")
    assert shown[1].startswith("| aide-mcts | `m` | 60.0 |")
