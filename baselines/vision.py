"""Images for the neural-network baselines: decoding, resizing, batches, and transformers'
vision models with pretrained or random weights.

Transforms are written with PIL, numpy and torch (no torchvision, no timm). Images are decoded
once, in parallel threads, into one uint8 array at the training resolution; a batch is cut
from it, moved to the device, flipped at random and normalised there.

Models come from transformers by hub id. By default the pretrained weights are loaded with
``from_pretrained`` (the hub, its cache under ``HF_HOME``, or a local folder given as
``--pretrained PATH``). ``--pretrained none`` builds the same architecture from a config
written here in code, with random weights, and needs no network.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import torch
from PIL import Image

from baselines.kit import SetupError, tar_member, zip_member

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
"""The normalisation every model below was pretrained with."""

Source = Path | tuple[Path, str] | bytes
"""An image file, a member of an archive (a zip, or an uncompressed tar: ``.tar``, or named
``.tar.gz`` as iNaturalist's are while holding a plain tar), or an encoded image's bytes."""


def _resnet(hidden: list[int], depths: list[int], layer_type: str) -> Callable[[], Any]:
    def config() -> Any:
        from transformers import ResNetConfig

        return ResNetConfig(
            embedding_size=64, hidden_sizes=hidden, depths=depths, layer_type=layer_type
        )

    return config


def _convnext(hidden: list[int], depths: list[int]) -> Callable[[], Any]:
    def config() -> Any:
        from transformers import ConvNextConfig

        return ConvNextConfig(hidden_sizes=hidden, depths=depths)

    return config


ARCHITECTURES: dict[str, Callable[[], Any]] = {
    "microsoft/resnet-18": _resnet([64, 128, 256, 512], [2, 2, 2, 2], "basic"),
    "microsoft/resnet-50": _resnet([256, 512, 1024, 2048], [3, 4, 6, 3], "bottleneck"),
    "facebook/convnext-tiny-224": _convnext([96, 192, 384, 768], [3, 3, 9, 3]),
}
"""Hub id -> the config of its architecture (from the hub's ``config.json``), for
``--pretrained none``. With a 1000-class head these have the published parameter counts:
11,689,512, 25,557,032 and 28,589,128."""


def image_classifier(hub_id: str, num_labels: int, pretrained: str | None) -> torch.nn.Module:
    """``hub_id``'s image classifier with a fresh ``num_labels`` head.

    ``pretrained``: None loads ``hub_id``'s weights, a hub id or folder loads those, ``none``
    builds the architecture with random weights.
    """
    from transformers import AutoModelForImageClassification

    if pretrained == "none":
        config = ARCHITECTURES[hub_id]()
        config.num_labels = num_labels
        return AutoModelForImageClassification.from_config(config)
    name = pretrained or hub_id
    try:
        return AutoModelForImageClassification.from_pretrained(
            name, num_labels=num_labels, ignore_mismatched_sizes=True
        )
    except (OSError, ValueError) as e:  # no hub, no cache, or not a model folder
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise SetupError(
            f"cannot load pretrained weights {name!r} ({first}); without hub access pass "
            "--pretrained none (random weights) or --pretrained PATH (a local copy)"
        ) from None


def describe(model: torch.nn.Module, hub_id: str, pretrained: str | None) -> str:
    """One line for the log: the architecture, its size, where its weights came from."""
    params = sum(p.numel() for p in model.parameters()) / 1e6
    weights = "random (--pretrained none)" if pretrained == "none" else pretrained or hub_id
    return f"model {hub_id} ({params:.1f}M parameters); weights: {weights}"


def read_image(source: Source, size: int, mode: str = "RGB") -> np.ndarray:
    """One image as a ``size`` x ``size`` uint8 array (squashed to a square, bilinear)."""
    image: Image.Image
    if isinstance(source, bytes):
        image = Image.open(io.BytesIO(source))
    elif isinstance(source, tuple):
        archive, member = source
        is_tar = archive.name.endswith((".tar", ".tar.gz", ".tgz"))
        data = tar_member(archive, member) if is_tar else zip_member(archive, member)
        image = Image.open(io.BytesIO(data))
    else:
        image = Image.open(source)
    image.draft(mode, (size, size))  # JPEG: decode at a reduced scale when that suffices
    image = image.convert(mode).resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(image, np.uint8)


def load_images(
    sources: Sequence[Source],
    size: int,
    threads: int,
    log: Callable[[str], None],
    what: str = "images",
) -> np.ndarray:
    """Every image, decoded in ``threads`` threads (PIL releases the GIL while decoding),
    as one (N, size, size, 3) uint8 array; a progress line every tenth of a large set."""
    out = np.zeros((len(sources), size, size, 3), np.uint8)
    step = max(1, len(sources) // 10) if len(sources) >= 5000 else len(sources)

    def load(i: int) -> None:
        out[i] = read_image(sources[i], size)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        for done, _ in enumerate(pool.map(load, range(len(sources))), start=1):
            if done % step == 0 or done == len(sources):
                log(f"decoded {done:,}/{len(sources):,} {what} at {size}x{size}")
    return out


class Batches:
    """Normalised image batches on ``device``, cut from a uint8 (N, H, W, 3) array, with
    random flips when training (``flips``: the axes flipped at random, ``"h"``/``"v"``)."""

    def __init__(
        self, images: np.ndarray, device: torch.device, flips: str = "h", seed: int = 0
    ) -> None:
        self.images = images
        self.device = device
        self.flips = flips
        self.generator = torch.Generator().manual_seed(seed)
        shape = (1, 3, 1, 1)
        self.mean = torch.tensor(IMAGENET_MEAN, device=device).view(shape)
        self.std = torch.tensor(IMAGENET_STD, device=device).view(shape)

    def __call__(self, rows: np.ndarray, train: bool = False, flip: str = "") -> torch.Tensor:
        x = torch.from_numpy(self.images[rows])
        x = x.to(self.device, non_blocking=True).permute(0, 3, 1, 2).float().div_(255)
        x = (x - self.mean) / self.std
        if train:
            for axis, dim in (("h", 3), ("v", 2)):
                if axis in self.flips:
                    chosen = torch.rand(len(rows), generator=self.generator) < 0.5
                    x[chosen.to(self.device)] = x[chosen.to(self.device)].flip(dim)
        for axis, dim in (("h", 3), ("v", 2)):  # test-time augmentation asks for a flip
            if axis in flip:
                x = x.flip(dim)
        if self.device.type == "cuda":
            x = x.contiguous(memory_format=torch.channels_last)
        return x


def predict_logits(
    model: torch.nn.Module,
    batches: Batches,
    n_rows: int,
    batch_size: int,
    flips: Sequence[str] = ("", "h"),
) -> np.ndarray:
    """The model's logits for every image, averaged over the flipped views in ``flips``
    (test-time augmentation; ``""`` is the image as it is)."""
    from baselines.torchkit import autocast, predict

    model.eval()

    def forward(rows: np.ndarray) -> torch.Tensor:
        with autocast(batches.device):
            views = [model(pixel_values=batches(rows, flip=f)).logits.float() for f in flips]
        return torch.stack(views).mean(0)

    return predict(forward, n_rows, batch_size)
