"""vinbigdata-chest-xray-abnormalities-detection: COCO average precision at IoU 0.4, by
pycocotools, over the classes of the answers.

A submission has ``image_id, PredictionString`` with ``"<class_id> <confidence> <x_min> <y_min>
<x_max> <y_max>"`` repeated (``14 1 0 0 1 1`` is "no finding"); the answers (``answers.csv``)
are one box per image and class. Both sides go to pycocotools' ``COCOeval`` as upstream builds
them (Kaggle's public notebook ``VinBigDataEval``): images numbered in the answers' order of
first appearance, categories from the answers' ``class_name``/``class_id`` pairs, annotation
ids counted from 0 in the answers' order and detection ids from 0 in the submission's row
order, ``iouThrs`` = [0.4]; the score is ``stats[0]`` (area "all", 100 detections an image).

Upstream's quirks, kept (this is pycocotools itself, fed what upstream feeds it): the corner
boxes are passed where COCO expects ``x, y, width, height``, on both sides, so the overlap is
that of ``[x_min, x_min + x_max] x [y_min, y_min + y_max]``, while each ``area`` is computed
from the corners (a reversed box has a negative area, outside every area range: an unmatched
detection with one is ignored); an annotation or detection whose id is 0 counts as unmatched
in COCO's bookkeeping (the first truth box never makes a true positive; the first detection
leaves its truth box free for another), so the submission's row order can change the score; a
predicted class the answers lack is ignored; only the set of image ids is checked (rows may be
repeated or reordered: every row's boxes count); a blank or malformed prediction fails parsing
or reshaping (an error: invalid). The gold file holds the answers' boxes at confidence 1.0.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"
ID, PREDICTION = "image_id", "PredictionString"
CORNERS = ["x_min", "y_min", "x_max", "y_max"]
IOU_THRESHOLD = 0.4


def truth_dataset(answers: pd.DataFrame) -> tuple[dict[str, Any], dict[Any, int]]:
    """The answers as a COCO dataset, and each image id's number."""
    if "class_name" not in answers.columns:
        answers = answers.assign(class_name=answers["class_id"])
    image_ids = answers[ID].unique()
    number = {image_id: k for k, image_id in enumerate(image_ids)}
    pairs = answers[["class_name", "class_id"]].drop_duplicates().sort_values(by="class_id")
    categories = [
        {"id": class_id, "name": name, "supercategory": "none"}
        for name, class_id in pairs.itertuples(index=False)
    ]
    rows_of: dict[int, list[Any]] = {k: [] for k in range(len(image_ids))}
    for row in answers[[ID, "class_id", *CORNERS]].itertuples(index=False):
        rows_of[number[row[0]]].append(row)
    annotations: list[dict[str, Any]] = []
    for k in range(len(image_ids)):
        for _, class_id, x0, y0, x1, y1 in rows_of[k]:
            annotations.append(
                {
                    "id": len(annotations),
                    "image_id": k,
                    "category_id": class_id,
                    "bbox": np.array([x0, y0, x1, y1]),
                    "segmentation": [],
                    "ignore": 0,
                    "area": (x1 - x0) * (y1 - y0),
                    "iscrowd": 0,
                }
            )
    images = [{"id": k} for k in range(len(image_ids))]
    return {
        "type": "instances",
        "images": images,
        "categories": categories,
        "annotations": annotations,
    }, number


def detections(submission: pd.DataFrame, number: dict[Any, int]) -> list[dict[str, Any]]:
    """Every row's boxes, in row order, as COCO detections."""
    out: list[dict[str, Any]] = []
    for image_id, prediction in submission[[ID, PREDICTION]].itertuples(index=False):
        values = np.array(list(map(float, prediction.split(" "))))  # NaN cell: fails, as upstream
        for box in values.reshape(-1, 6):
            out.append(
                {
                    "id": len(out),
                    "image_id": number[image_id],
                    "category_id": int(box[0]),
                    "bbox": np.array([box[2], box[3], box[4], box[5]]),
                    "segmentation": [],
                    "ignore": 0,
                    "area": (box[4] - box[2]) * (box[5] - box[3]),
                    "iscrowd": 0,
                    "score": box[1],
                }
            )
    return out


def coco_ap(truth: dict[str, Any], found: list[dict[str, Any]]) -> float:
    """``stats[0]`` of pycocotools' bbox evaluation at IoU 0.4 (its printing silenced)."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        coco_truth, coco_found = COCO(), COCO()
        coco_truth.dataset = truth
        coco_truth.createIndex()
        coco_found.dataset = {
            "images": list(truth["images"]),
            "categories": list(truth["categories"]),
            "annotations": found,
        }
        coco_found.createIndex()
        evaluation = COCOeval(coco_truth, coco_found, "bbox")
        evaluation.params.imgIds = sorted(coco_truth.getImgIds())
        evaluation.params.useCats = True
        evaluation.params.iouType = "bbox"
        evaluation.params.iouThrs = np.array([IOU_THRESHOLD])
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return evaluation.stats[0]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    for column in ["class_id", *CORNERS, ID]:
        require(column in answers.columns, f"Answers must have a `{column}` column")
    for column in CORNERS:
        require(not answers[column].isnull().any(), f"Answers must not contain NaN in `{column}`")
    for column in (PREDICTION, ID):
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Submission must have a `{column}` column")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmissionError(
            "The set of image_ids in the submission must match the set of image_ids in the answers"
        )
    truth, number = truth_dataset(answers)
    return coco_ap(truth, detections(submission, number))
