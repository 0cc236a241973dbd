"""Extractive question answering for the baselines: a transformers encoder with a start/end
head over (question, passage) pairs, and the decoding of its logits back to character spans.

A passage longer than the model's window is cut into overlapping windows (``stride`` tokens
shared); each window is one row, ``sample`` names its question. The answer's character span
becomes each window's start and end token, or position 0 (the first token) in a window that
does not hold it whole, as SQuAD 2.0 models are trained. Decoding takes, per question, the
best-scoring span over its windows (start logit + end logit, start <= end, at most
``max_answer_tokens`` long, inside the passage), and its margin over the no-answer score.

``--pretrained none`` builds the hub architecture with random weights and a byte-level BPE
tokenizer learnt on the task's text (``baselines.text``), as the classifiers do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from baselines.kit import SetupError
from baselines.text import ARCHITECTURES, train_tokenizer


def question_answerer(
    hub_id: str, pretrained: str | None, texts: Sequence[str]
) -> tuple[torch.nn.Module, Any]:
    """``(model, tokenizer)``: ``hub_id``'s encoder with a start/end head (kept when the hub
    model has one, fresh otherwise). ``pretrained`` as in ``text.text_classifier``."""
    from transformers import AutoConfig, AutoModelForQuestionAnswering, AutoTokenizer

    if pretrained == "none":
        tokenizer = train_tokenizer(texts)
        fields = dict(ARCHITECTURES[hub_id])
        config = AutoConfig.for_model(
            fields.pop("model_type"),
            **{**fields, "vocab_size": len(tokenizer)},
            pad_token_id=tokenizer.pad_token_id,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
        return AutoModelForQuestionAnswering.from_config(config), tokenizer
    name = pretrained or hub_id
    try:
        tokenizer = AutoTokenizer.from_pretrained(name)
        model = AutoModelForQuestionAnswering.from_pretrained(name)
    except (OSError, ValueError) as e:  # no hub, no cache, or not a model folder
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise SetupError(
            f"cannot load pretrained weights {name!r} ({first}); without hub access pass "
            "--pretrained none (random weights) or --pretrained PATH (a local copy)"
        ) from None
    return model, tokenizer


def encode_windows(
    tokenizer: Any,
    questions: Sequence[str],
    passages: Sequence[str],
    max_length: int,
    stride: int,
    answers: Sequence[tuple[int, int] | None] | None = None,
) -> dict[str, np.ndarray]:
    """One row per window: ``input_ids``, ``attention_mask``, ``sample`` (the question's
    number), ``offsets`` (each token's character span in its passage; (-1, -1) outside it)
    and, given ``answers`` (character ``(start, end)`` per question, None for no answer),
    ``start`` and ``end`` token targets (0 where the window lacks the answer)."""
    batch = tokenizer(
        list(questions),
        list(passages),
        truncation="only_second",
        max_length=max_length,
        stride=stride,
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
        padding="max_length",
    )
    sample = np.asarray(batch["overflow_to_sample_mapping"], np.int64)
    offsets = np.full((len(sample), max_length, 2), -1, np.int64)
    for row in range(len(sample)):
        in_passage = np.asarray([s == 1 for s in batch.sequence_ids(row)])
        spans = np.asarray(batch["offset_mapping"][row], np.int64)
        offsets[row][in_passage] = spans[in_passage]
    out = {
        "input_ids": np.asarray(batch["input_ids"], np.int64),
        "attention_mask": np.asarray(batch["attention_mask"], np.int64),
        "sample": sample,
        "offsets": offsets,
    }
    if answers is not None:
        out["start"], out["end"] = token_targets(offsets, sample, answers)
    return out


def token_targets(
    offsets: np.ndarray, sample: np.ndarray, answers: Sequence[tuple[int, int] | None]
) -> tuple[np.ndarray, np.ndarray]:
    """Start and end token of each window's answer, 0 and 0 where it does not lie whole."""
    start, end = np.zeros(len(sample), np.int64), np.zeros(len(sample), np.int64)
    for row, k in enumerate(sample):
        answer = answers[k]
        if answer is None:
            continue
        lo, hi = offsets[row, :, 0], offsets[row, :, 1]
        inside = lo >= 0
        if not inside.any() or lo[inside].min() > answer[0] or hi[inside].max() < answer[1]:
            continue
        first = np.flatnonzero(inside & (hi > answer[0]))
        last = np.flatnonzero(inside & (lo < answer[1]))
        if len(first) and len(last) and first[0] <= last[-1]:
            start[row], end[row] = first[0], last[-1]
    return start, end


def span_loss(
    start_logits: torch.Tensor, end_logits: torch.Tensor, start: torch.Tensor, end: torch.Tensor
) -> torch.Tensor:
    """Mean cross-entropy of the start and end positions."""
    ce = torch.nn.functional.cross_entropy
    return (ce(start_logits.float(), start) + ce(end_logits.float(), end)) / 2


def best_spans(
    start_logits: np.ndarray,
    end_logits: np.ndarray,
    offsets: np.ndarray,
    sample: np.ndarray,
    n_samples: int,
    max_answer_tokens: int,
    top: int = 20,
) -> list[tuple[int, int, float]]:
    """Per question: ``(char_start, char_end, margin)`` of its best span over its windows,
    ``margin`` being its score less the best no-answer score; ``(0, 0, -inf)`` with none."""
    best: list[tuple[int, int, float]] = [(0, 0, -np.inf)] * n_samples
    null = np.full(n_samples, -np.inf)
    for row, k in enumerate(sample):
        s_log, e_log, spans = start_logits[row], end_logits[row], offsets[row]
        null[k] = max(null[k], float(s_log[0] + e_log[0]))
        valid = spans[:, 0] >= 0
        if not valid.any():
            continue
        starts = np.flatnonzero(valid)[np.argsort(-s_log[valid])[:top]]
        ends = np.flatnonzero(valid)[np.argsort(-e_log[valid])[:top]]
        pairs = [(s, e) for s in starts for e in ends if s <= e < s + max_answer_tokens]
        if not pairs:
            continue
        s, e = max(pairs, key=lambda p: s_log[p[0]] + e_log[p[1]])
        score = float(s_log[s] + e_log[e])
        if score > best[k][2]:
            best[k] = (int(spans[s, 0]), int(spans[e, 1]), score)
    return [(a, b, score - null[k]) for k, (a, b, score) in enumerate(best)]


def forward_windows(
    model: torch.nn.Module, tokens: dict[str, np.ndarray], device: torch.device
) -> Any:
    """``forward(rows) -> (start_logits, end_logits)`` over the windows, trimmed to the
    longest row of the batch."""

    def forward(rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        mask = tokens["attention_mask"][rows]
        width = max(1, int(mask.sum(axis=1).max()))
        out = model(
            input_ids=torch.from_numpy(tokens["input_ids"][rows, :width]).to(device),
            attention_mask=torch.from_numpy(mask[:, :width]).to(device),
        )
        return out.start_logits, out.end_logits

    return forward


def span_training_loss(
    model: torch.nn.Module, tokens: dict[str, np.ndarray], device: torch.device
) -> Any:
    """``loss_of(rows)`` for ``torchkit.fit``: the span loss of those training windows against
    their ``start`` and ``end`` targets."""
    from baselines.torchkit import autocast

    forward = forward_windows(model, tokens, device)
    start = torch.from_numpy(tokens["start"]).to(device)
    end = torch.from_numpy(tokens["end"]).to(device)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        with autocast(device):
            start_logits, end_logits = forward(rows)
        return span_loss(start_logits, end_logits, start[rows], end[rows])

    return loss_of


def predict_windows(
    model: torch.nn.Module, tokens: dict[str, np.ndarray], device: torch.device, batch_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Start and end logits of every window, padded to the full width with -inf."""
    from baselines.torchkit import autocast, predict

    model.eval()
    forward = forward_windows(model, tokens, device)
    width = tokens["input_ids"].shape[1]

    def run(rows: np.ndarray) -> torch.Tensor:
        with autocast(device):
            start, end = forward(rows)
        both = torch.stack([start.float(), end.float()], dim=1)
        return torch.nn.functional.pad(both, (0, width - both.shape[2]), value=-1e9)

    logits = predict(run, len(tokens["input_ids"]), batch_size)
    return logits[:, 0], logits[:, 1]
