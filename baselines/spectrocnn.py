"""A small CNN over spectrograms, trained from scratch, and the fixed-size crops it reads.

The audio and signal baselines (speech commands, sound tagging, the gestures' spoken names,
EEG) classify log-power images of (channels, frequency bands, frames). ``SpectrogramCNN`` is
four blocks of two 3x3 convolutions (batch norm, ReLU) and 2x2 average pooling, then the mean
over frequency and the sum of the max and the mean over time, and a linear head: a few hundred
thousand weights, which train in minutes on a GPU and in seconds (a few steps) on a CPU.
With ``per_frame`` it pools over frequency only and scores every frame (the gestures' sessions
are labelled frame by frame). Crops: a training clip is cut (or padded) to a fixed number of
frames at a random place; a long clip is predicted as the mean over its consecutive crops.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import torch
from torch import nn


def block(c_in: int, c_out: int, pool: tuple[int, int]) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.AvgPool2d(pool, ceil_mode=True),
    )


class SpectrogramCNN(nn.Module):
    """(batch, channels, bands, frames) -> (batch, n_out) logits, or with ``per_frame``
    (batch, n_out, frames)."""

    def __init__(
        self, in_channels: int, n_out: int, width: int = 32, per_frame: bool = False
    ) -> None:
        super().__init__()
        pool = (2, 1) if per_frame else (2, 2)
        widths = [in_channels, width, 2 * width, 4 * width, 4 * width]
        self.features = nn.Sequential(*(block(a, b, pool) for a, b in pairwise(widths)))
        self.per_frame = per_frame
        self.dropout = nn.Dropout(0.2)
        if per_frame:  # a 5-frame temporal convolution over the pooled features
            self.head: nn.Module = nn.Conv1d(widths[-1], n_out, 5, padding=2)
        else:
            self.head = nn.Linear(widths[-1], n_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.features(x).mean(dim=2)  # (batch, width, frames)
        if self.per_frame:
            out: torch.Tensor = self.head(self.dropout(h))
            return out
        pooled = h.amax(dim=2) + h.mean(dim=2)
        out = self.head(self.dropout(pooled))
        return out


def crop(image: np.ndarray, frames: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """``frames`` frames of a (..., frames) image: at a random start with ``rng``, else from
    the start; a shorter image is padded with zeros (its mean, once standardised) at a random
    place or at the end."""
    have = image.shape[-1]
    if have >= frames:
        start = int(rng.integers(0, have - frames + 1)) if rng is not None else 0
        return image[..., start : start + frames]
    out = np.zeros((*image.shape[:-1], frames), image.dtype)
    start = int(rng.integers(0, frames - have + 1)) if rng is not None else 0
    out[..., start : start + have] = image
    return out


def windows(image: np.ndarray, frames: int) -> np.ndarray:
    """Consecutive ``frames``-frame crops covering a (..., frames) image, stacked (the last
    one padded)."""
    starts = range(0, max(1, image.shape[-1] - frames // 2), frames)
    return np.stack([crop(image[..., s:], frames) for s in starts])


def standardise(image: np.ndarray) -> np.ndarray:
    """Zero mean and unit spread over the whole image, as float16 (half the memory)."""
    return ((image - image.mean()) / (image.std() + 1e-6)).astype(np.float16)
