"""Checks and alignments shared by several graders, with upstream MLE-bench's semantics.

Rows are aligned by sorting both frames on the id column (pandas' default sort) and then
comparing positionally, exactly as upstream does, so that duplicated or foreign ids fail the
same check and messages read the same.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError


def require(condition: bool, message: str) -> None:
    """Check the answers side; a failure is a harness fault (upstream's bare ``assert``)."""
    if not condition:
        raise AssertionError(message)


def ids_differ(left: pd.Series, right: pd.Series) -> bool:
    """True when two id columns of equal length differ anywhere, position by position."""
    return bool((left.values != right.values).any())


def same_order(left: pd.Series, right: pd.Series) -> bool:
    """Two id columns of one dtype, no id missing, equal position by position. Upstream sorts
    both sides by id and pairs rows by position; one deterministic sort of two equal key
    columns moves both alike, so here it would pair row i with row i, ties included: a grader
    can skip the sorts and their copies (a submission written in the answers' order, as most
    are, from the sample submission)."""
    return (
        len(left) == len(right)
        and left.dtype == right.dtype
        and not left.hasnans
        and not ids_differ(left, right)
    )


def sorted_by_id(
    submission: pd.DataFrame, answers: pd.DataFrame, id_col: str, message: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both frames sorted on ``id_col``, their ids then compared element by element as upstream
    compares them: ``InvalidSubmissionError(message)`` where they differ, and numpy's own
    ``ValueError`` (graded invalid, as upstream's is) where the lengths cannot be broadcast."""
    submission = submission.sort_values(by=id_col)
    answers = answers.sort_values(by=id_col)
    submitted, expected = submission[id_col].to_numpy(), answers[id_col].to_numpy()
    if len(submitted) != len(expected) and 1 not in (len(submitted), len(expected)):
        raise ValueError(
            f"operands could not be broadcast together with shapes ({len(submitted)},) "
            f"({len(expected)},)"
        )
    if (submitted != expected).any():
        raise InvalidSubmissionError(message)
    return submission, answers


def accuracy_inputs(
    submission: pd.DataFrame, answers: pd.DataFrame, target: str, id_col: str
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_pred)`` aligned by id, labels unconverted (``prepare_for_accuracy_metric``)."""
    require(target in answers.columns, f"Answers must have a `{target}` column")
    require(id_col in answers.columns, f"Answers must have a `{id_col}` column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission must have the same length as the answers.")
    if target not in submission.columns:
        raise InvalidSubmissionError(f"Submission must have a `{target}` column")
    if id_col not in submission.columns:
        raise InvalidSubmissionError(f"Submission must have a `{id_col}` column")
    if same_order(submission[id_col], answers[id_col]):  # the same pairs, in file order
        return answers[target].to_numpy(), submission[target].to_numpy()
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if ids_differ(submission[id_col], answers[id_col]):
        raise InvalidSubmissionError(f"Submission and Answers `{id_col}`'s do not match")
    return answers[target].to_numpy(), submission[target].to_numpy()


def auroc_inputs(
    submission: pd.DataFrame, answers: pd.DataFrame, id_col: str, target: str
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_score)`` aligned by id, scores checked numeric in [0, 1]
    (``prepare_for_auroc_metric``)."""
    require(id_col in answers.columns, f"answers dataframe should have an {id_col} column")
    require(target in answers.columns, f"answers dataframe should have a {target} column")
    if id_col not in submission.columns:
        raise InvalidSubmissionError(f"Submission should have an {id_col} column")
    if target not in submission.columns:
        raise InvalidSubmissionError(f"Submission should have a {target} column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers should have the same number of rows")
    scores = submission[target]
    try:
        pd.to_numeric(scores)
    except ValueError:
        raise InvalidSubmissionError(
            f"Expected {target} column to be numeric, got {scores.dtype} instead"
        ) from None
    if scores.min() < 0 or scores.max() > 1:
        raise InvalidSubmissionError(
            f"Submission {target} column should contain probabilities,"
            " and therefore contain values between 0 and 1 inclusive"
        )
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if ids_differ(submission[id_col], answers[id_col]):
        raise InvalidSubmissionError(f"Submission and answers should have the same {id_col} values")
    return answers[target].to_numpy(), submission[target].to_numpy()


def auroc_score(submission: pd.DataFrame, answers: pd.DataFrame, id_col: str, target: str) -> float:
    """ROC-AUC of one probability column, after the checks of ``auroc_inputs``."""
    from sklearn.metrics import roc_auc_score  # here: importing scikit-learn costs ~80 MB

    y_true, y_score = auroc_inputs(submission, answers, id_col, target)
    return roc_auc_score(y_true=y_true, y_score=y_score)


def one_hot_log_loss_inputs(
    submission: pd.DataFrame, answers: pd.DataFrame, id_col: str = "id"
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_pred)`` class matrices aligned by id and ordered as the answers' columns
    (``one_hot_dfs_to_log_loss_inputs`` with ``apply_softmax=False``, as every caller passes)."""
    required = set(answers.columns)
    present = set(submission.columns)
    if not present.issuperset(required):
        raise InvalidSubmissionError(
            "The submission DataFrame is missing some columns required by the `answers` "
            f"DataFrame. Missing columns: {required - present}."
        )
    if id_col not in submission.columns:
        raise InvalidSubmissionError(f"Submission is missing id column '{id_col}'.")
    require(id_col in answers.columns, f"Answers is missing id column '{id_col}'.")

    submission = submission[[col for col in answers.columns if col in present]]
    submission = submission.sort_values(by=id_col).reset_index(drop=True)
    answers = answers.sort_values(by=id_col).reset_index(drop=True)
    if submission[id_col].tolist() != answers[id_col].tolist():
        label = id_col.capitalize()
        mismatched = len(set(submission[id_col]) ^ set(answers[id_col]))
        raise AssertionError(
            f"Mismatch in {label}s between `submission` and `answers` after sorting. "
            f"Number of mismatched {label}s: {mismatched}. "
            f"Ensure both DataFrames have the same {label}s."
        )
    require(
        list(submission.columns) == list(answers.columns),
        "Column order mismatch after filtering and sorting. "
        "Ensure both DataFrames have columns in the same order.",
    )
    y_true = answers.drop(columns=[id_col]).to_numpy()
    y_pred = submission.drop(columns=[id_col]).to_numpy()
    return y_true, y_pred


def check_probability_rows(probabilities: pd.DataFrame, sum_message: str) -> None:
    """Each row sums to one (``np.isclose`` with ``atol=1e-6``) and every value is in [0, 1]."""
    if not np.all(np.isclose(probabilities.sum(axis=1), 1, atol=1e-6)):
        raise InvalidSubmissionError(sum_message)
    if not ((probabilities >= 0) & (probabilities <= 1)).all().all():
        raise InvalidSubmissionError(
            "All probabilities in submission DataFrame must be between 0 and 1."
        )
