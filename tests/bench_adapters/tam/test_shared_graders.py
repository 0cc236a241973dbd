"""The four metrics TAM shares with MLE-bench, and lmsys-chatbot-arena's, as MLE-bench graders:
perfect, constant and invalid submissions in upstream MLE-bench's prepared schema."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.graders.multi_modal_gesture_recognition import edit_distance

NEW = (
    "tensorflow-speech-recognition-challenge",
    "statoil-iceberg-classifier-challenge",
    "multi-modal-gesture-recognition",
    "stanford-covid-vaccine",
    "lmsys-chatbot-arena",
)


def grade(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(competition_id)
    assert spec is not None
    read = [pd.read_csv(io.StringIO(f.to_csv(index=False))) for f in (submission, answers)]
    return spec.grade(*read)


def test_the_five_are_registered_with_upstreams_files() -> None:
    files = {c: (get_grader(c).answers, get_grader(c).sample_submission) for c in NEW}  # type: ignore[union-attr]
    assert files["statoil-iceberg-classifier-challenge"] == (
        "test.csv",
        "private/sample_submission.csv",
    )
    assert files["multi-modal-gesture-recognition"] == ("test.csv", "public/randomPredictions.csv")
    assert files["lmsys-chatbot-arena"][0] == "answers.csv"


def test_speech_accuracy() -> None:
    answers = pd.DataFrame(
        {
            "fname": [f"clip_{k:08d}.wav" for k in range(4)],
            "label": ["yes", "no", "silence", "unknown"],
        }
    )
    assert grade("tensorflow-speech-recognition-challenge", answers[::-1], answers) == 1.0
    assert (
        grade("tensorflow-speech-recognition-challenge", answers.assign(label="yes"), answers)
        == 0.25
    )
    with pytest.raises(InvalidSubmissionError, match="same length"):
        grade("tensorflow-speech-recognition-challenge", answers.iloc[:3], answers)


def test_iceberg_log_loss() -> None:
    answers = pd.DataFrame({"id": ["a", "b", "c", "d"], "is_iceberg": [0, 1, 1, 0]})
    assert grade(
        "statoil-iceberg-classifier-challenge", answers.assign(is_iceberg=0.5), answers
    ) == pytest.approx(np.log(2))
    assert grade("statoil-iceberg-classifier-challenge", answers, answers) < 1e-6
    with pytest.raises(InvalidSubmissionError, match="between 0 and 1"):
        grade("statoil-iceberg-classifier-challenge", answers.assign(is_iceberg=1.5), answers)
    with pytest.raises(InvalidSubmissionError, match="between 0 and 1"):
        grade("statoil-iceberg-classifier-challenge", answers.assign(is_iceberg="high"), answers)
    with pytest.raises(InvalidSubmissionError, match="different id"):
        grade("statoil-iceberg-classifier-challenge", answers.assign(id=list("abcx")), answers)


def test_gesture_normalized_levenshtein_can_exceed_one() -> None:
    assert edit_distance([1, 2, 3], [1, 3]) == 1 and edit_distance([], [4, 5]) == 2
    assert edit_distance([1, 2, 3, 4], [2, 1, 3, 4]) == 2
    answers = pd.DataFrame({"Id": [300, 301], "Sequence": ["1 2 3", "4 5"]})
    assert grade("multi-modal-gesture-recognition", answers, answers) == 0.0
    wrong = answers.assign(Sequence=["1 3", "6 7 8 9 10 11"])
    assert grade("multi-modal-gesture-recognition", wrong, answers) == pytest.approx((1 + 6) / 5)
    with pytest.raises(InvalidSubmissionError, match="integers separated by spaces"):
        grade("multi-modal-gesture-recognition", answers.assign(Sequence=["a b", "1"]), answers)
    with pytest.raises(InvalidSubmissionError, match="same ids"):
        grade("multi-modal-gesture-recognition", answers.assign(Id=[300, 302]), answers)


def test_covid_mcrmse_scores_three_targets_on_kept_positions() -> None:
    targets = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
    answers = pd.DataFrame(
        {
            "id_seqpos": [f"id_x_{j}" for j in range(4)],
            **{t: [0.1, 0.2, 0.0, 0.0] for t in targets},
            "keep": [True, True, False, False],
        }
    )
    submission = answers.drop(columns="keep")
    assert grade("stanford-covid-vaccine", submission, answers) == 0.0
    off = submission.assign(reactivity=[0.4, 0.5, 9.0, 9.0], deg_pH10=99.0)  # unscored: ignored
    assert grade("stanford-covid-vaccine", off, answers) == pytest.approx(0.3 / 3)
    # Upstream applies `keep` by the row's place in the file, not by its id: reversed rows keep
    # the file's last two lines (id_x_2, id_x_3) and pair them with the scored id_x_0, id_x_1.
    misaligned = [np.sqrt((8.9**2 + 8.8**2) / 2), *[np.sqrt((0.1**2 + 0.2**2) / 2)] * 2]
    assert grade("stanford-covid-vaccine", off.iloc[::-1], answers) == pytest.approx(
        np.mean(misaligned)
    )
    with pytest.raises(InvalidSubmissionError, match="columns"):
        grade("stanford-covid-vaccine", submission.drop(columns="deg_50C"), answers)


def test_lmsys_multiclass_log_loss() -> None:
    classes = ["winner_model_a", "winner_model_b", "winner_tie"]
    answers = pd.DataFrame(
        {"id": [1, 2, 3], **dict(zip(classes, np.eye(3, dtype=int).T.tolist(), strict=True))}
    )
    uniform = answers.assign(**dict.fromkeys(classes, 1 / 3))
    assert grade("lmsys-chatbot-arena", uniform, answers) == pytest.approx(np.log(3))
    with pytest.raises(InvalidSubmissionError, match="sum to 1"):
        grade("lmsys-chatbot-arena", answers.assign(winner_tie=0.5), answers)
    with pytest.raises(InvalidSubmissionError, match="missing required columns"):
        grade("lmsys-chatbot-arena", uniform.drop(columns="winner_tie"), answers)
