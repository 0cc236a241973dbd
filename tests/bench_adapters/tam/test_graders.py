"""Every TAM grader through its task, on synthetic data in the task's exact formats: the perfect
submission, a sample-style one, and malformed ones (each invalid, with a message, never a crash)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench_adapters import resolve_task
from bench_adapters.tam import TASK_IDS, TamTask
from bench_adapters.tam.synthetic import write_gold

Perfect = {"rmse": 0.0}


def task(tam_data: Path, task_id: str) -> TamTask:
    resolved = resolve_task(f"tam/{task_id}", data_dir=tam_data)
    assert isinstance(resolved, TamTask)
    return resolved


def gold(tam_data: Path, task_id: str, tmp_path: Path) -> Path:
    t = task(tam_data, task_id)
    return write_gold(task_id, t.prepared_dir, tmp_path / "gold" / t.info.submission)


def invalid(t: TamTask, path: Path, fragment: str = "") -> str:
    ok, message = t.validate(path)
    report = t.grade(path)
    assert not ok and not report["valid_submission"], message
    assert report["score"] is None and report["rank_pct"] is None
    assert report["normalized_reward"] == 0.0 and message == report["message"]
    assert message.startswith("Submission invalid!") and fragment in message, message
    return message


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_the_answers_as_a_submission_score_perfectly_and_rank_first(
    tam_data: Path, task_id: str, tmp_path: Path
) -> None:
    t = task(tam_data, task_id)
    report = t.grade(gold(tam_data, task_id, tmp_path))
    assert report["valid_submission"] and report["made_submission"], report["message"]
    assert report["score"] == (0.0 if t.is_lower_better else 1.0)
    assert report["rank"] == 1 and report["rank_pct"] == 1 / report["participants"]
    assert report["normalized_reward"] == 1.0
    assert t.validate(gold(tam_data, task_id, tmp_path)) == (True, "Submission is valid.")


@pytest.mark.parametrize(
    "task_id", [t for t in TASK_IDS if t not in ("graph/medium", "graph/hard", "multimodal/medium")]
)
def test_the_sample_submission_is_valid_and_worse_than_perfect(
    tam_data: Path, task_id: str
) -> None:
    t = task(tam_data, task_id)
    assert t.sample_submission_path is not None
    report = t.grade(t.sample_submission_path)
    assert report["valid_submission"], report["message"]
    perfect = 0.0 if t.is_lower_better else 1.0
    assert report["score"] != perfect and report["rank"] > 1


CSV_TASKS = [t for t in TASK_IDS if t.split("/")[0] not in ("graph",) and t != "multimodal/medium"]


@pytest.mark.parametrize("task_id", CSV_TASKS)
def test_malformed_tables_are_invalid_with_a_reason(
    tam_data: Path, task_id: str, tmp_path: Path
) -> None:
    t = task(tam_data, task_id)
    frame = pd.read_csv(gold(tam_data, task_id, tmp_path), dtype=str, keep_default_na=False)
    id_col = frame.columns[0]

    def write(name: str, data: pd.DataFrame | str) -> Path:
        path = tmp_path / name
        if isinstance(data, str):
            path.write_text(data)
        else:
            data.to_csv(path, index=False)
        return path

    invalid(t, write("no-id.csv", frame.drop(columns=id_col)), id_col)
    invalid(t, write("no-target.csv", frame.drop(columns=frame.columns[-1])), "lacks column")
    invalid(t, write("short.csv", frame.iloc[:-1]), "rows")
    repeated = frame.copy()
    repeated.loc[len(frame) - 1, id_col] = frame[id_col].iloc[0]
    invalid(t, write("repeated.csv", repeated), "more than once")
    stranger = frame.copy()
    stranger.loc[len(frame) - 1, id_col] = "no-such-id"
    invalid(t, write("stranger.csv", stranger), "not in the submission")
    invalid(t, write("empty.csv", ""), "")
    invalid(t, write("garbage.csv", '\x00\xff\x00 not,a\n"csv'), "")
    invalid(t, write("submission.txt", frame), "must be a submission.csv")
    invalid(t, tmp_path / "missing.csv", "does not exist")
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    invalid(t, folder, "does not exist")


# One cell of row 2 made blank, text or infinite where the grader reads a number, or blank where
# it reads a label: (column, values, what the message says). text/easy's "after" is any text.
BAD_CELLS = {
    "audio/easy": ("Probability", ["", "nan", "abc", "inf"], "data row 2"),
    "audio/medium": ("label", ["", "nan"], "data row 2"),
    "audio/hard": ("birds", [""], "nocall"),
    "image/easy": ("value", ["", "abc", "inf"], "data row 2"),
    "image/medium": ("is_iceberg", ["", "abc", "-inf"], "data row 2"),
    "image/hard": ("rotation_matrix", ["abc", "inf", "1;2;x;4;5;6;7;8;9"], "rotation_matrix"),
    "multimodal/easy": ("Sequence", ["abc"], "Sequence"),
    "multimodal/hard": ("X4", ["", "abc", "inf"], "data row 2"),
    "tabular/easy": ("fare_amount", ["", "nan", "abc", "inf", "-inf"], "data row 2"),
    "tabular/medium": ("class", [""], "class"),
    "tabular/hard": ("reactivity", ["", "x", "inf"], "data row 2"),
    "text/hard": ("MisconceptionId", ["abc", "inf", "1.5"], "integers"),
    "text/medium": ("winner_tie", ["", "abc", "inf"], "data row 2"),
}


@pytest.mark.parametrize("task_id", sorted(BAD_CELLS))
def test_blank_text_or_infinite_cells_are_invalid_naming_the_column(
    tam_data: Path, task_id: str, tmp_path: Path
) -> None:
    t = task(tam_data, task_id)
    frame = pd.read_csv(gold(tam_data, task_id, tmp_path), dtype=str, keep_default_na=False)
    column, values, fragment = BAD_CELLS[task_id]
    path = tmp_path / "submission.csv"
    for value in values:
        frame.assign(
            **{column: [value if i == 1 else v for i, v in enumerate(frame[column])]}
        ).to_csv(path, index=False)
        message = invalid(t, path, fragment)
        assert column in message and "\n" not in message, (value, message)


def test_a_label_column_of_numbers_is_graded_as_text(tam_data: Path, tmp_path: Path) -> None:
    t = task(tam_data, "audio/medium")  # upstream's accuracy mixed str and int and raised
    frame = pd.read_csv(gold(tam_data, "audio/medium", tmp_path), dtype=str)
    path = tmp_path / "submission.csv"
    frame.assign(label="1").to_csv(path, index=False)
    assert t.grade(path)["score"] == 0.0


@pytest.mark.parametrize("task_id", CSV_TASKS)
def test_rows_may_come_in_any_order(tam_data: Path, task_id: str, tmp_path: Path) -> None:
    t = task(tam_data, task_id)
    frame = pd.read_csv(gold(tam_data, task_id, tmp_path), dtype=str, keep_default_na=False)
    shuffled = tmp_path / "shuffled.csv"
    frame.sample(frac=1.0, random_state=3).to_csv(shuffled, index=False)
    assert t.grade(shuffled)["score"] == (0.0 if t.is_lower_better else 1.0)


def test_a_symlinked_submission_is_never_followed(tam_data: Path, tmp_path: Path) -> None:
    t = task(tam_data, "tabular/medium")
    link = tmp_path / "submission.csv"
    link.symlink_to(t.answers_path)
    report = t.grade(link)
    assert not report["made_submission"] and not report["valid_submission"]


# --- task-specific semantics --------------------------------------------------------------


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_graph_easy_scores_are_the_likelihood_of_an_incorrect_assignment(
    tam_data: Path, tmp_path: Path
) -> None:
    t = task(tam_data, "graph/easy")
    right = json.loads(gold(tam_data, "graph/easy", tmp_path).read_text())
    assert all(v in (0, 1) for papers in right.values() for v in papers.values())
    flipped = {a: {p: 1 - v for p, v in papers.items()} for a, papers in right.items()}
    assert t.grade(write_json(tmp_path / "flipped.json", flipped))["score"] == 0.0  # upstream: 1.0
    author, papers = next(iter(right.items()))
    missing = {**right, author: dict(list(papers.items())[1:])}
    invalid(t, write_json(tmp_path / "missing.json", missing), "has no score")
    invalid(t, write_json(tmp_path / "no-author.json", dict(list(right.items())[1:])), "missing")
    text = {**right, author: {p: "high" for p in papers}}
    invalid(t, write_json(tmp_path / "text.json", text), "expected a number")
    infinite = {**right, author: dict.fromkeys(papers, float("inf"))}  # JSON's Infinity
    invalid(t, write_json(tmp_path / "infinite.json", infinite), "not a finite number")
    invalid(t, write_json(tmp_path / "list.json", [1, 2]), "JSON object")
    (tmp_path / "broken.json").write_text("{")
    invalid(t, tmp_path / "broken.json", "not a JSON file")


def test_graph_medium_wants_a_score_in_0_1_for_every_serial_of_every_paper(
    tam_data: Path, tmp_path: Path
) -> None:
    t = task(tam_data, "graph/medium")
    right = json.loads(gold(tam_data, "graph/medium", tmp_path).read_text())
    flat = {p: dict.fromkeys(serials, 0.5) for p, serials in right.items()}
    report = t.grade(write_json(tmp_path / "flat.json", flat))
    assert report["valid_submission"] and 0 < report["score"] < 1
    paper, serials = next(iter(right.items()))
    invalid(
        t,
        write_json(tmp_path / "no-paper.json", {p: s for p, s in right.items() if p != paper}),
        "missing",
    )
    above = {**right, paper: dict.fromkeys(serials, 1.5)}
    invalid(t, write_json(tmp_path / "above.json", above), "[0, 1]")
    as_list = {p: list(s.values()) for p, s in right.items()}  # upstream's format
    invalid(t, write_json(tmp_path / "list.json", as_list), "expected an object")


def test_graph_hard_is_twenty_ids_per_question_line(tam_data: Path, tmp_path: Path) -> None:
    t = task(tam_data, "graph/hard")
    lines = gold(tam_data, "graph/hard", tmp_path).read_text().splitlines()
    path = tmp_path / "result.txt"
    path.write_text("\n".join(lines) + "\n\n\n")  # trailing blank lines are no question
    assert t.grade(path)["score"] == 1.0
    relevant = lines[0].split(",")[:3]
    moved = ",".join([*(f"x{k}" for k in range(17)), *relevant])  # the hits at 18, 19, 20
    path.write_text("\n".join([moved, *lines[1:]]))
    ap = (1 / 18 + 2 / 19 + 3 / 20) / 3
    assert t.grade(path)["score"] == pytest.approx(round((ap + len(lines) - 1) / len(lines), 5))
    path.write_text("\n".join(lines[:-1]))
    invalid(t, path, "lines")
    path.write_text("\n".join([",".join(lines[0].split(",")[:19]), *lines[1:]]))
    invalid(t, path, "expected 20")


def test_audio_hard_nocall_is_the_empty_set_and_blank_is_invalid(
    tam_data: Path, tmp_path: Path
) -> None:
    t = task(tam_data, "audio/hard")
    truth = pd.read_csv(t.answers_path)
    guess = truth.assign(birds="nocall")
    path = tmp_path / "submission.csv"
    guess.to_csv(path, index=False)
    share_empty = float((truth.birds == "nocall").mean())
    assert t.grade(path)["score"] == pytest.approx(round(share_empty, 5))
    guess.assign(birds="").to_csv(path, index=False)
    invalid(t, path, "nocall")


def test_text_hard_needs_every_row_and_at_most_25_ids(tam_data: Path, tmp_path: Path) -> None:
    t = task(tam_data, "text/hard")
    truth = pd.read_csv(t.answers_path)
    third = truth.assign(MisconceptionId=[f"900 901 {m}" for m in truth.MisconceptionId])
    path = tmp_path / "submission.csv"
    third.to_csv(path, index=False)
    assert t.grade(path)["score"] == pytest.approx(1 / 3, abs=1e-5)
    repeated = truth.assign(MisconceptionId=[f"900 900 900 {m} {m}" for m in truth.MisconceptionId])
    repeated.to_csv(path, index=False)
    # positions are the list's own (Kaggle's apk): the truth at 4 scores 1/4, its repeat nothing
    assert t.grade(path)["score"] == pytest.approx(1 / 4, abs=1e-5)
    truth.iloc[1:].to_csv(path, index=False)
    invalid(t, path, "rows")  # upstream silently averages over the rows submitted
    truth.assign(MisconceptionId=" ".join(map(str, range(26)))).to_csv(path, index=False)
    invalid(t, path, "at most 25")
    truth.assign(MisconceptionId="one two").to_csv(path, index=False)
    invalid(t, path, "integers")


def test_multimodal_medium_is_a_parquet_of_100_ids_per_session(
    tam_data: Path, tmp_path: Path
) -> None:
    t = task(tam_data, "multimodal/medium")
    frame = pd.read_parquet(gold(tam_data, "multimodal/medium", tmp_path))
    path = tmp_path / "submission.parquet"
    second = frame.assign(
        next_item_prediction=[["x", *items[:99]] for items in frame.next_item_prediction]
    )
    second.sample(frac=1.0, random_state=1).to_parquet(path, index=False)
    assert t.grade(path)["score"] == 0.5
    frame.assign(
        next_item_prediction=[items[:99] for items in frame.next_item_prediction]
    ).to_parquet(path)
    invalid(t, path, "exactly 100")
    frame.assign(next_item_prediction="B0").to_parquet(path)
    invalid(t, path, "not a list")
    frame.iloc[:-1].to_parquet(path)
    invalid(t, path, "rows")
    path.write_text("session_id,next_item_prediction\n1,[]\n")
    invalid(t, path, "parquet")


def test_multimodal_hard_clips_each_r2_at_zero(tam_data: Path, tmp_path: Path) -> None:
    t = task(tam_data, "multimodal/hard")
    truth = pd.read_csv(t.answers_path)
    path = tmp_path / "submission.csv"
    bad = truth.copy()
    bad["X4"] = -truth["X4"] * 100  # a hugely negative R² on one trait counts as 0
    bad.to_csv(path, index=False)
    assert t.grade(path)["score"] == round(5 / 6, 5)  # scores are rounded to 5 decimals
    truth.assign(X11="n/a").to_csv(path, index=False)
    invalid(t, path, "X11 must be a finite number on every row; data row 1")


def test_image_hard_registers_centres_up_to_a_similarity_and_counts_nan_as_missed(
    tam_data: Path, tmp_path: Path
) -> None:
    t = task(tam_data, "image/hard")
    truth = pd.read_csv(t.answers_path)
    rng = np.random.default_rng(0)
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    q *= np.sign(np.linalg.det(q))
    rows = []
    for r, tr in zip(truth.rotation_matrix, truth.translation_vector, strict=True):
        rot = np.array([float(x) for x in r.split(";")]).reshape(3, 3)
        centre = -rot.T @ np.array([float(x) for x in tr.split(";")])
        moved = 2.5 * q @ centre + np.array([1.0, -2.0, 3.0])  # another frame, another scale
        new_rot = rot @ q.T
        rows.append((";".join(map(str, new_rot.ravel())), ";".join(map(str, -new_rot @ moved))))
    path = tmp_path / "submission.csv"
    moved = truth.assign(
        rotation_matrix=[a for a, _ in rows], translation_vector=[b for _, b in rows]
    )
    moved.to_csv(path, index=False)
    assert t.grade(path)["score"] == 1.0
    # every scene has 6 images; unregister 3 of the church's: that scene scores 3/6
    nan = ";".join(["nan"] * 9)
    church = moved.index[moved.scene == "church"][:3]
    moved.loc[church, "rotation_matrix"] = nan
    moved.to_csv(path, index=False)
    assert t.grade(path)["score"] == pytest.approx((0.5 + 1.0) / 2)  # church, then lizard's 2
    for unregistered in ("nan", ""):  # a lone nan, as the spec writes it, or a blank cell
        moved.loc[church, "rotation_matrix"] = unregistered
        moved.to_csv(path, index=False)
        assert t.grade(path)["score"] == pytest.approx((0.5 + 1.0) / 2), unregistered
    moved.loc[church, "translation_vector"] = "nan"
    moved.to_csv(path, index=False)
    assert t.grade(path)["score"] == pytest.approx((0.5 + 1.0) / 2)
    moved.assign(translation_vector="1;2").to_csv(path, index=False)
    invalid(t, path, "3 ';'-separated")
    moved.assign(scene="elsewhere").to_csv(path, index=False)
    invalid(t, path, "differs")


def test_tabular_hard_masks_unscored_positions_by_position(tam_data: Path, tmp_path: Path) -> None:
    t = task(tam_data, "tabular/hard")
    truth = pd.read_csv(t.answers_path)
    frame = truth.drop(columns="keep")
    frame.loc[~truth.keep, "reactivity"] = 99.0  # unscored positions may hold anything
    path = tmp_path / "submission.csv"
    frame.sample(frac=1.0, random_state=2).to_csv(path, index=False)
    assert t.grade(path)["score"] == 0.0


def test_a_copy_of_the_data_elsewhere_is_a_task_folder(tam_data: Path, tmp_path: Path) -> None:
    folder = tmp_path / "text" / "hard"
    shutil.copytree(tam_data / "text" / "hard", folder)
    t = resolve_task(str(folder))
    assert isinstance(t, TamTask) and t.id == "tam/text/hard"
    assert t.grade(gold(tam_data, "text/hard", tmp_path))["score"] == 1.0
