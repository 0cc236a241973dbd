"""Masks for the segmentation baselines: U-Nets, their loss, tiled prediction, thresholds, and
masks moved between a working resolution and the competition's.

Two U-Nets share one decoder (upsample, join the encoder's map of that size, two 3x3
convolutions, up to the input's resolution):

- ``ResNetUNet``: a transformers ResNet as the encoder (``ResNetBackbone``; ImageNet weights by
  default, ``--pretrained none`` builds the same architecture with random weights, as
  ``vision.image_classifier`` does), with a small full-resolution branch for thin structures.
  Inputs with other than three channels (MRI slices, x-ray volume layers) go through a learnt
  1x1 convolution to three first.
- ``UNet``: plain convolutions, random weights, any number of input channels: for inputs that
  look nothing like photographs (a lidar bird's-eye view).

Both pad their input to a multiple of their total stride and crop the output back, so any
size goes in. Large images (gigapixel slides, papyrus fragments) are predicted tile by tile
(``predict_tiled``), and masks too large to hold at full size are read from and written to
run-length intervals at a lower working resolution (``resized_from_runs``,
``intervals_at_size``, with ``rlecodec``'s column-major numbering), never built whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from baselines.kit import SetupError

STAGES = ["stage1", "stage2", "stage3", "stage4"]
"""The ResNet stages the encoder hands to the decoder (strides 4, 8, 16 and 32)."""


def conv_block(cin: int, cout: int) -> nn.Sequential:
    """Two 3x3 convolutions, each with batch norm and ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Decoder(nn.Module):
    """From the coarsest map up: upsample to the next map's size, concatenate, convolve; a 1x1
    convolution gives ``out_channels`` logits at the finest map's resolution."""

    def __init__(self, channels: Sequence[int], widths: Sequence[int], out_channels: int) -> None:
        """``channels``: the encoder's maps, finest first; ``widths``: the decoder's, one per
        map but the coarsest, coarsest first."""
        super().__init__()
        if len(widths) != len(channels) - 1:
            raise ValueError("one decoder width per encoder map but the coarsest")
        blocks, below = [], channels[-1]
        for skip, width in zip(reversed(channels[:-1]), widths, strict=True):
            blocks.append(conv_block(below + skip, width))
            below = width
        self.blocks = nn.ModuleList(blocks)
        self.head = nn.Conv2d(below, out_channels, 1)

    def forward(self, features: Sequence[torch.Tensor]) -> torch.Tensor:
        x = features[-1]
        for block, skip in zip(self.blocks, reversed(features[:-1]), strict=True):
            x = F.interpolate(x, size=skip.shape[-2:], mode="bilinear", align_corners=False)
            x = block(torch.cat([x, skip], dim=1))
        return self.head(x)


def padded(x: torch.Tensor, multiple: int) -> tuple[torch.Tensor, int, int]:
    """``x`` zero-padded at the bottom and right to a multiple of ``multiple``; its size."""
    height, width = x.shape[-2:]
    pad_h, pad_w = -height % multiple, -width % multiple
    return F.pad(x, (0, pad_w, 0, pad_h)) if pad_h or pad_w else x, height, width


class UNet(nn.Module):
    """A plain U-Net: ``conv_block`` then 2x2 max pooling per level, random weights."""

    def __init__(
        self, in_channels: int, out_channels: int, widths: Sequence[int] = (32, 64, 128, 256)
    ) -> None:
        super().__init__()
        ins = [in_channels, *widths[:-1]]
        self.levels = nn.ModuleList(conv_block(a, b) for a, b in zip(ins, widths, strict=True))
        self.decoder = Decoder(widths, list(reversed(widths[:-1])), out_channels)
        self.stride = 2 ** (len(widths) - 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x, height, width = padded(x, self.stride)
        features = []
        for k, level in enumerate(self.levels):
            x = level(F.max_pool2d(x, 2) if k else x)
            features.append(x)
        return self.decoder(features)[..., :height, :width]


class ResNetUNet(nn.Module):
    """A U-Net on a transformers ResNet encoder (strides 4 to 32) plus a full-resolution
    branch; ``in_channels`` other than 3 pass through a learnt 1x1 convolution first."""

    stride = 32

    def __init__(self, backbone: Any, in_channels: int, out_channels: int) -> None:
        super().__init__()
        self.adapt = nn.Conv2d(in_channels, 3, 1) if in_channels != 3 else nn.Identity()
        self.backbone = backbone
        self.full = conv_block(3, 16)
        channels = [16, *backbone.config.hidden_sizes]
        self.decoder = Decoder(channels, [256, 128, 64, 32], out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x, height, width = padded(self.adapt(x), self.stride)
        maps = list(self.backbone(pixel_values=x).feature_maps)
        return self.decoder([self.full(x), *maps])[..., :height, :width]


def resnet_unet(
    hub_id: str, in_channels: int, out_channels: int, pretrained: str | None
) -> ResNetUNet:
    """A ``ResNetUNet`` on ``hub_id``'s ResNet: its weights (``pretrained`` None), those of
    another hub id or folder, or random ones (``none``: the architecture from
    ``vision.ARCHITECTURES``, offline)."""
    from transformers import ResNetBackbone

    from baselines.vision import ARCHITECTURES

    if pretrained == "none":
        config = ARCHITECTURES[hub_id]()
        config.out_features = STAGES
        return ResNetUNet(ResNetBackbone(config), in_channels, out_channels)
    name = pretrained or hub_id
    try:
        backbone = ResNetBackbone.from_pretrained(name, out_features=STAGES)
    except (OSError, ValueError) as e:  # no hub, no cache, or not a model folder
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise SetupError(
            f"cannot load pretrained weights {name!r} ({first}); without hub access pass "
            "--pretrained none (random weights) or --pretrained PATH (a local copy)"
        ) from None
    return ResNetUNet(backbone, in_channels, out_channels)


def dice_bce(logits: torch.Tensor, target: torch.Tensor, smooth: float = 1.0) -> torch.Tensor:
    """Binary cross-entropy plus (1 - soft Dice), the Dice over the whole batch per channel:
    the cross-entropy keeps pixels calibrated, the Dice keeps small structures from being
    drowned by the background."""
    logits, target = logits.float(), target.float()
    bce = F.binary_cross_entropy_with_logits(logits, target)
    p = torch.sigmoid(logits)
    dims = (0, *range(2, p.dim()))
    overlap = (p * target).sum(dims)
    dice = (2 * overlap + smooth) / (p.sum(dims) + target.sum(dims) + smooth)
    return bce + (1 - dice).mean()


def random_flips(
    x: torch.Tensor, y: torch.Tensor, generator: torch.Generator, axes: str = "hv"
) -> tuple[torch.Tensor, torch.Tensor]:
    """The same random flips (``h``: left-right, ``v``: up-down, ``t``: transpose of square
    inputs) of each image and its mask."""
    for axis in axes:
        chosen = (torch.rand(len(x), generator=generator) < 0.5).to(x.device)
        if axis == "t":
            x = torch.where(chosen[:, None, None, None], x.transpose(-1, -2), x)
            y = torch.where(chosen[:, None, None, None], y.transpose(-1, -2), y)
            continue
        dim = 3 if axis == "h" else 2
        x = torch.where(chosen[:, None, None, None], x.flip(dim), x)
        y = torch.where(chosen[:, None, None, None], y.flip(dim), y)
    return x, y


FLIP_DIMS = {"": (), "h": (3,), "v": (2,), "hv": (2, 3)}
"""Test-time flips: the tensor dimensions each one flips."""


def predict_probs(
    model: nn.Module,
    batch_of: Callable[[np.ndarray], torch.Tensor],
    n_rows: int,
    batch_size: int,
    flips: Sequence[str] = ("",),
) -> np.ndarray:
    """Sigmoid probabilities ``(N, K, H, W)`` of every row (``batch_of(rows)``: the input
    batch, on the model's device), averaged over the flipped views in ``flips`` (each flipped
    back before averaging)."""
    from baselines.torchkit import autocast, predict

    model.eval()
    device = next(model.parameters()).device

    def forward(rows: np.ndarray) -> torch.Tensor:
        x = batch_of(rows)
        views = []
        with autocast(device):
            for flip in flips:
                dims = FLIP_DIMS[flip]
                out = model(x.flip(dims) if dims else x).float()
                views.append(torch.sigmoid(out.flip(dims) if dims else out))
        return torch.stack(views).mean(0)

    return predict(forward, n_rows, batch_size)


def starts(length: int, tile: int, step: int) -> list[int]:
    """Tile offsets covering ``length``: every ``step``, the last flush with the end."""
    if length <= tile:
        return [0]
    out = list(range(0, length - tile, step))
    return [*out, length - tile]


def tile_count(shape: Sequence[int], tile: int, overlap: int) -> int:
    """How many tiles ``predict_tiled`` runs over an image of this shape (its last two
    numbers: height, width)."""
    height, width = shape[-2:]
    step = max(1, tile - overlap)
    return len(starts(height, tile, step)) * len(starts(width, tile, step))


@torch.no_grad()
def predict_tiled(
    forward: Callable[[torch.Tensor], torch.Tensor],
    image: np.ndarray,
    tile: int,
    overlap: int,
    batch_size: int,
    device: torch.device,
) -> np.ndarray:
    """Sigmoid probabilities ``(K, H, W)`` of a ``(C, H, W)`` float32 image, from ``forward``
    (a batch of tiles to logits) over overlapping ``tile``-pixel tiles, averaged where they
    overlap; an image smaller than a tile is zero-padded."""
    height, width = image.shape[-2:]
    full_h, full_w = max(height, tile), max(width, tile)
    if (full_h, full_w) != (height, width):
        image = np.pad(image, ((0, 0), (0, full_h - height), (0, full_w - width)))
    step = max(1, tile - overlap)
    corners = [(r, c) for r in starts(full_h, tile, step) for c in starts(full_w, tile, step)]
    total: np.ndarray | None = None
    counts = np.zeros((full_h, full_w), np.float32)
    for first in range(0, len(corners), batch_size):
        group = corners[first : first + batch_size]
        batch = np.stack([image[:, r : r + tile, c : c + tile] for r, c in group])
        probs = torch.sigmoid(forward(torch.from_numpy(batch).to(device)).float()).cpu().numpy()
        if total is None:
            total = np.zeros((probs.shape[1], full_h, full_w), np.float32)
        for (r, c), p in zip(group, probs, strict=True):
            total[:, r : r + tile, c : c + tile] += p
            counts[r : r + tile, c : c + tile] += 1
    assert total is not None
    return (total / counts)[:, :height, :width]


THRESHOLDS = np.round(np.arange(0.05, 0.95, 0.05), 2)
"""The thresholds ``best_threshold`` tries by default: 0.05 to 0.9."""


def best_threshold(
    score_of: Callable[[float], float], grid: Sequence[float] | np.ndarray = THRESHOLDS
) -> tuple[float, float]:
    """The threshold of ``grid`` with the best (highest) ``score_of``, and that score; a NaN
    score never wins."""
    best_t, best = float(grid[0]), -np.inf
    for t in grid:
        score = score_of(float(t))
        if score > best:  # NaN compares False
            best_t, best = float(t), score
    return best_t, float(best)


def resized_from_runs(
    lo: np.ndarray, hi: np.ndarray, height: int, width: int, out_h: int, out_w: int
) -> np.ndarray:
    """The ``out_h x out_w`` boolean mask (nearest neighbour) of a ``height x width`` mask given
    as 0-based flat ``[lo, hi)`` runs numbered down each column (``rlecodec.parse``), without
    building the full-size mask."""
    lo, hi = np.asarray(lo, np.int64), np.asarray(hi, np.int64)
    ys = ((np.arange(out_h) + 0.5) * height / out_h).astype(np.int64)  # rows sampled
    xs = ((np.arange(out_w) + 0.5) * width / out_w).astype(np.int64)  # columns sampled
    first_col, last_col = lo // height, (hi - 1) // height
    pieces = last_col - first_col + 1  # a run may continue into the next columns
    run = np.repeat(np.arange(len(lo)), pieces)
    col = first_col[run] + np.arange(len(run)) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    top = np.maximum(lo[run] - col * height, 0)
    bottom = np.minimum(hi[run] - col * height, height)
    j0, j1 = np.searchsorted(xs, col, "left"), np.searchsorted(xs, col, "right")
    i0, i1 = np.searchsorted(ys, top, "left"), np.searchsorted(ys, bottom, "left")
    keep = (j1 > j0) & (i1 > i0)
    j0, j1, i0, i1 = j0[keep], j1[keep], i0[keep], i1[keep]
    repeat = j1 - j0  # upsampling: one full column feeds several output columns
    cols = (
        np.repeat(j0, repeat)
        + np.arange(repeat.sum())
        - np.repeat(np.cumsum(repeat) - repeat, repeat)
    )
    edges = np.zeros((out_h + 1, out_w), np.int32)
    np.add.at(edges, (np.repeat(i0, repeat), cols), 1)
    np.add.at(edges, (np.repeat(i1, repeat), cols), -1)
    return np.cumsum(edges, axis=0)[:out_h] > 0


def intervals_at_size(mask: np.ndarray, height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """A small boolean mask stretched to ``height x width`` (nearest neighbour: full pixel
    ``(y, x)`` takes ``mask[y * h // height, x * w // width]``), as 0-based flat ``[lo, hi)``
    intervals numbered down each column, for ``rlecodec.encode_intervals``: a gigapixel mask
    is never built."""
    h, w = mask.shape
    padded_cols = np.zeros((w, h + 2), np.int8)  # each column, a blank row before and after
    padded_cols[:, 1:-1] = mask.T
    col, edge = np.nonzero(np.diff(padded_cols, axis=1))
    col, a, b = col[0::2], edge[0::2], edge[1::2]  # each run [a, b) of low-resolution rows
    top = -((-a * height) // h)  # the full rows whose low-resolution row is in [a, b)
    bottom = -((-b * height) // h)
    x0 = -((-col * width) // w)  # the full columns whose low-resolution column is col
    x1 = -((-(col + 1) * width) // w)
    count = x1 - x0
    run = np.repeat(np.arange(len(col)), count)
    x = x0[run] + np.arange(len(run)) - np.repeat(np.cumsum(count) - count, count)
    return x * height + top[run], x * height + bottom[run]
