"""google-quest-challenge: mean over the 30 target columns of Spearman's rank correlation.

The submission must hold ``qa_id``, the 30 targets and nothing else, one row per answer row.
Upstream's quirks, kept: after sorting both frames on ``qa_id`` the rows are paired by
position, with no check that the ids agree; duplicated ids are paired in the order of
upstream's unstable sort (numpy 1.26's introsort: the order of a CPU without AVX-512, with
which numpy 1.26 sorts 64-bit ids another way; the parity data is made with
``NPY_DISABLE_CPU_FEATURES`` naming the AVX-512 features); a constant or partly missing
column correlates as NaN, so the whole score is NaN (valid, and beats no one); a text column
is ranked in lexicographic order (as scipy ranks it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from . import InvalidSubmissionError
from ._helpers import require
from ._sort import upstream_sorted

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID = "qa_id"
TARGETS = [
    "question_asker_intent_understanding", "question_body_critical", "question_conversational",
    "question_expect_short_answer", "question_fact_seeking",
    "question_has_commonly_accepted_answer", "question_interestingness_others",
    "question_interestingness_self", "question_multi_intent", "question_not_really_a_question",
    "question_opinion_seeking", "question_type_choice", "question_type_compare",
    "question_type_consequence", "question_type_definition", "question_type_entity",
    "question_type_instructions", "question_type_procedure", "question_type_reason_explanation",
    "question_type_spelling", "question_well_written", "answer_helpful",
    "answer_level_of_information", "answer_plausible", "answer_relevance", "answer_satisfaction",
    "answer_type_instructions", "answer_type_procedure", "answer_type_reason_explanation",
    "answer_well_written",
]  # fmt: skip
"""The 30 targets in upstream's order (the sample submission's columns after ``qa_id``)."""


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if ID not in submission.columns:
        raise InvalidSubmissionError(f"Submission is missing `{ID}` column")
    missing = set(TARGETS) - set(submission.columns)
    if missing:
        raise InvalidSubmissionError(f"Submission is missing the following columns: {missing}")
    if len(submission.columns) != len(TARGETS) + 1:
        raise InvalidSubmissionError(
            f"Submission has {len(submission.columns) - 1} columns, expected {len(TARGETS)}"
        )
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers have different lengths")
    require(ID in answers.columns, f"Answers is missing `{ID}` column")
    absent = set(TARGETS) - set(answers.columns)
    require(not absent, f"Answers is missing the following columns: {absent}")
    require(
        len(answers.columns) == len(TARGETS) + 1,
        f"Answers has {len(answers.columns)} columns, expected {len(TARGETS) + 1}",
    )
    submission = upstream_sorted(submission, ID)  # duplicated ids: upstream's tie order
    answers = upstream_sorted(answers, ID)
    correlations = [
        spearmanr(submission[column].to_numpy(), answers[column].to_numpy()).correlation
        for column in TARGETS
    ]
    return float(np.mean(correlations))
