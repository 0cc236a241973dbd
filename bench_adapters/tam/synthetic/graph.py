"""Synthetic graph tasks (OAG-Challenge): author disambiguation, paper source tracing and
academic question answering, as JSON, JSON lines, XML and TXT."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FIELDS = ["graph neural networks", "protein folding", "speech recognition", "query optimization"]
NOISE = ["a study", "new results", "an analysis", "a method", "experiments", "a survey"]


def _dump(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _paper(rng: np.random.Generator, pid: str, field: int, org: str) -> dict[str, object]:
    return {
        "id": pid,
        "title": f"{rng.choice(NOISE).capitalize()} of {FIELDS[field]} {pid[-3:]}",
        "authors": [{"name": f"Author {rng.integers(100)}", "org": org}],
        "abstract": f"We study {FIELDS[field]} with {rng.choice(NOISE)}.",
        "keywords": FIELDS[field].split(),
        "venue": f"Conference on {FIELDS[field].title()}",
        "year": int(rng.integers(2000, 2023)),
    }


def incorrect_assignments(public: Path, private: Path, rng: np.random.Generator) -> None:
    papers: dict[str, object] = {}
    authors: dict[str, dict[str, list[str]]] = {}
    for a in range(12):
        field, org = a % len(FIELDS), f"University {a}"
        normal = [f"p{a:02d}n{k:03d}" for k in range(8)]
        outliers = [f"p{a:02d}o{k:03d}" for k in range(int(rng.integers(1, 4)))]
        for pid in normal:
            papers[pid] = _paper(rng, pid, field, org)
        for pid in outliers:
            papers[pid] = _paper(rng, pid, (field + 1) % len(FIELDS), "Elsewhere Institute")
        authors[f"a{a:04d}"] = {"normal_data": normal, "outliers": outliers}
    _dump(public / "pid_to_info_all.json", papers)
    train = dict(list(authors.items())[:8])
    test = dict(list(authors.items())[8:])
    _dump(public / "train_author.json", {a: {"name": f"Name {a}", **v} for a, v in train.items()})
    listed = {a: sorted(v["normal_data"] + v["outliers"]) for a, v in test.items()}
    _dump(
        public / "ind_valid_author.json",
        {a: {"name": f"Name {a}", "papers": p} for a, p in listed.items()},
    )
    _dump(
        public / "ind_valid_author_submit.json", {a: dict.fromkeys(p, 0) for a, p in listed.items()}
    )
    _dump(private / "test_labels.json", test)


def incorrect_gold(private: Path, path: Path) -> None:
    truth = json.loads((private / "test_labels.json").read_text())
    gold = {
        a: {**dict.fromkeys(v["normal_data"], 0), **dict.fromkeys(v["outliers"], 1)}
        for a, v in truth.items()
    }
    _dump(path, gold)


def _xml(paper: str, references: list[tuple[str, str]]) -> str:
    refs = "\n".join(
        f'      <biblStruct xml:id="{s}"><title>{t}</title></biblStruct>' for s, t in references
    )
    body = " ".join(
        f'inspired by <ref type="bibr" target="#{s}">[{i}]</ref>'
        for i, (s, _) in enumerate(references)
    )
    return (
        f'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><p>{paper}: {body}</p></body>\n'
        f"  <back><listBibl>\n{refs}\n  </listBibl></back></text></TEI>\n"
    )


def source_papers(public: Path, private: Path, rng: np.random.Generator) -> None:
    (public / "paper-xml").mkdir()
    train, test, truth = [], [], {}
    for p in range(20):
        pid = f"{p:024x}"
        refs = [
            (f"b{k}", f"{rng.choice(NOISE)} of {rng.choice(FIELDS)}")
            for k in range(int(rng.integers(4, 9)))
        ]
        sources = set(rng.choice(len(refs), int(rng.integers(1, 3)), replace=False).tolist())
        (public / "paper-xml" / f"{pid}.xml").write_text(_xml(pid, refs), encoding="utf-8")
        entry = {"_id": pid, "title": f"Paper {p} on {rng.choice(FIELDS)}", "authors": [], "venue": "KDD", "year": 2023,
                 "references": [s for s, _ in refs]}  # fmt: skip
        if p < 15:
            entry["refs_trace"] = [
                {"title": refs[k][1], "referenced_serial_number": k} for k in sorted(sources)
            ]
            train.append(entry)
        else:
            test.append(entry)
            truth[pid] = {s: int(k in sources) for k, (s, _) in enumerate(refs)}
    _dump(public / "paper_source_trace_train_ans.json", train)
    _dump(public / "paper_source_trace_valid_wo_ans.json", test)
    _dump(private / "test_labels.json", truth)


def source_gold(private: Path, path: Path) -> None:
    _dump(path, json.loads((private / "test_labels.json").read_text()))


def retrieved_papers(public: Path, private: Path, rng: np.random.Generator) -> None:
    pids = [f"{k:024x}" for k in range(120)]
    topic = {pid: k % len(FIELDS) for k, pid in enumerate(pids)}
    _dump(
        public / "pid_to_title_abs_new.json",
        {
            pid: {"title": f"On {FIELDS[t]} {pid[-4:]}", "abstract": f"A paper about {FIELDS[t]}."}
            for pid, t in topic.items()
        },
    )
    lines: dict[str, list[str]] = {"train": [], "test": []}
    truth = []
    for q in range(40):
        t = q % len(FIELDS)
        relevant = sorted(rng.choice([p for p in pids if topic[p] == t], 3, replace=False).tolist())
        question = {
            "question": f"How does {FIELDS[t]} work? ({q})",
            "body": f"I want to learn {FIELDS[t]}.",
        }
        if q < 30:
            lines["train"].append(json.dumps({**question, "pids": relevant}))
        else:
            lines["test"].append(json.dumps(question))
            truth.append(json.dumps({"pids": relevant}))
    (public / "qa_train.txt").write_text("\n".join(lines["train"]) + "\n")
    (public / "qa_valid_wo_ans.txt").write_text("\n".join(lines["test"]) + "\n")
    (public / "pids.txt").write_text("\n".join(pids) + "\n")
    (private / "test_labels.jsonl").write_text("\n".join(truth) + "\n")


def retrieved_gold(private: Path, path: Path) -> None:
    fillers = [f"{k:024x}" for k in range(1000, 1020)]
    lines = []
    for line in (private / "test_labels.jsonl").read_text().splitlines():
        relevant = json.loads(line)["pids"]
        lines.append(",".join((relevant + fillers)[:20]))
    path.write_text("\n".join(lines) + "\n")


WRITERS = {
    "graph/easy": incorrect_assignments,
    "graph/medium": source_papers,
    "graph/hard": retrieved_papers,
}
GOLDS = {"graph/easy": incorrect_gold, "graph/medium": source_gold, "graph/hard": retrieved_gold}
