"""What every neural-network baseline shares: the device, a budgeted training loop, batched
prediction and probability calibration.

Portable across torch 2.11-2.13 (``torch.amp.autocast``, ``torch.optim.AdamW``), and imported
only by the scripts that train networks. The loop is data-agnostic: a script passes
``loss_of(rows)``, the loss of one mini-batch given its row numbers, and ``fit`` owns the
optimiser, the schedule and the clock::

    steps = fit(model, len(train), loss_of, epochs=EPOCHS, batch_size=BATCH, lr=LR,
                budget=budget, predict_rows=len(test), log=budget.log)

The time budget is kept by planning: after a few steps ``fit`` times one step, then trains
for as many steps as fit before the deadline (keeping back what predicting ``predict_rows``
rows will cost), at most ``epochs`` passes over the data, with the learning-rate schedule
(linear warm-up, cosine decay) laid over the steps it will actually run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from baselines.kit import Budget, SetupError

TIMING_STEPS = 5
"""Steps after the first (which pays for warm-up) over which a step is timed."""
FORWARD_SHARE = 0.35
"""A forward pass without gradients costs about this share of a training step."""


def pick_device(option: str | None = None) -> torch.device:
    """``cuda`` or ``cpu`` as asked; ``None`` or ``auto``: the GPU when there is one."""
    if option in (None, "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if option == "cuda" and not torch.cuda.is_available():
        raise SetupError("--device cuda: no CUDA device is visible to torch")
    return torch.device(option)


def setup(seed: int, threads: int, device: torch.device) -> None:
    """Seed torch and numpy; cap CPU threads; let cuDNN pick fast kernels on the GPU."""
    torch.manual_seed(seed)
    np.random.seed(seed)
    if device.type == "cpu":
        torch.set_num_threads(threads)
    else:
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True


def autocast(device: torch.device) -> Any:
    """bfloat16 mixed precision on the GPU (no loss scaling needed); full precision on CPU,
    where bfloat16 matmuls are slower than float32 ones."""
    return torch.amp.autocast(
        device_type=device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"
    )


def fit(
    model: torch.nn.Module,
    n_rows: int,
    loss_of: Callable[[np.ndarray], torch.Tensor],
    *,
    epochs: float,
    batch_size: int,
    lr: float,
    budget: Budget,
    weight_decay: float = 0.01,
    warmup: float = 0.05,
    max_steps: int | None = None,
    predict_rows: int = 0,
    reserve_s: float = 5.0,
    seed: int = 0,
    log_every: int = 50,
) -> int:
    """Train ``model`` with AdamW on shuffled mini-batches; returns the steps run.

    ``max_steps`` caps the steps (``--smoke``); ``predict_rows`` rows are predicted after
    training, and their cost is kept back from the training time, with ``reserve_s``.
    """
    rng = np.random.default_rng(seed)
    batch_size = max(1, min(batch_size, n_rows))
    steps_per_epoch = math.ceil(n_rows / batch_size)
    planned = max(1, math.ceil(epochs * steps_per_epoch))
    if max_steps is not None:
        planned = min(planned, max_steps)
    optimizer = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=weight_decay
    )
    deadline = budget.deadline(reserve_s=reserve_s)
    order = rng.permutation(n_rows)
    position = 0
    model.train()
    start = first_done = time.monotonic()
    step = 0
    while step < planned:
        if position + batch_size > n_rows:
            order, position = rng.permutation(n_rows), 0
        rows = order[position : position + batch_size]
        position += batch_size
        scale = min(1.0, (step + 1) / max(1, warmup * planned))
        scale *= 0.5 * (1 + math.cos(math.pi * step / planned))
        for group in optimizer.param_groups:
            group["lr"] = lr * scale
        loss = loss_of(rows)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        step += 1
        now = time.monotonic()
        if step == 1:
            first_done = now
        # Seconds a step takes: the first one (warm-up included) until later ones are timed.
        per_step = (now - start) if step == 1 else (now - first_done) / (step - 1)
        predicting = per_step * FORWARD_SHARE * predict_rows / batch_size
        if step == 1 + TIMING_STEPS:
            fits = step + int((deadline - predicting - now) / per_step)
            if fits < planned:
                budget.log(
                    f"time budget: {max(step, fits):,} of {planned:,} planned steps fit "
                    f"({per_step:.3f}s a step, ~{predicting:.0f}s kept back to predict)"
                )
                planned = max(step, fits)
        if step % log_every == 0 or step == planned:
            epoch = step / steps_per_epoch
            budget.log(f"step {step:,}/{planned:,} (epoch {epoch:.2f}): loss {loss.item():.4f}")
        if step < planned and now + per_step + predicting > deadline:
            budget.log(
                f"time budget reached at step {step:,} (~{predicting:.0f}s kept back to predict)"
            )
            break
    budget.log(f"trained {step:,} steps in {time.monotonic() - start:.1f}s")
    return step


@torch.no_grad()
def predict(
    forward: Callable[[np.ndarray], torch.Tensor], n_rows: int, batch_size: int
) -> np.ndarray:
    """``forward(rows)`` over every row in order, concatenated as float32 numpy."""
    chunks = [
        forward(np.arange(start, min(start + batch_size, n_rows))).float().cpu().numpy()
        for start in range(0, n_rows, batch_size)
    ]
    return np.concatenate(chunks) if chunks else np.zeros((0,), np.float32)


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = np.asarray(logits, np.float64) / temperature  # float64: rows sum to 1 within 1e-12
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def sigmoid(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    return 1 / (1 + np.exp(-np.asarray(logits, np.float64) / temperature))


def fit_temperature(logits: np.ndarray, y: np.ndarray, multiclass: bool) -> float:
    """The temperature that minimises validation log loss (a grid over 0.05..100): a large
    one flattens an over-confident model towards the prior, so calibrated probabilities never
    score much worse than the uniform sample submission."""
    best_t, best = 1.0, np.inf
    for t in np.geomspace(0.05, 100, 80):
        if multiclass:
            p = np.clip(softmax(logits, t)[np.arange(len(y)), y], 1e-15, 1)
            loss = -np.log(p).mean()
        else:
            p = np.clip(sigmoid(logits, t), 1e-15, 1 - 1e-15)
            loss = -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()
        if loss < best:
            best_t, best = float(t), loss
    return best_t


def peak_gpu_mib() -> float | None:
    """Peak GPU memory allocated by torch in this process, or None without a GPU."""
    if not torch.cuda.is_available() or not torch.cuda.is_initialized():
        return None
    return torch.cuda.max_memory_allocated() / 2**20
