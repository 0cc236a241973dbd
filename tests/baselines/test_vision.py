"""The image side of the network baselines: hub architectures offline, decoding, batches."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image

from baselines.vision import ARCHITECTURES, Batches, image_classifier, load_images, read_image

PUBLISHED_PARAMETERS = {  # with the 1000-class ImageNet head, as the hub's models have
    "microsoft/resnet-18": 11_689_512,
    "microsoft/resnet-50": 25_557_032,
    "facebook/convnext-tiny-224": 28_589_128,
}


@pytest.mark.parametrize("hub_id", sorted(ARCHITECTURES))
def test_pretrained_none_builds_the_hub_architecture_offline(
    hub_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = image_classifier(hub_id, 1000, "none")
    assert sum(p.numel() for p in model.parameters()) == PUBLISHED_PARAMETERS[hub_id]
    small = image_classifier(hub_id, 3, "none")
    assert small(pixel_values=torch.rand(2, 3, 32, 32)).logits.shape == (2, 3)


def test_pretrained_weights_that_cannot_be_loaded_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="pass --pretrained none") as caught:
        image_classifier("microsoft/resnet-18", 2, str(tmp_path))  # a folder with no model
    assert str(tmp_path) in str(caught.value) and "\n" not in str(caught.value)


def test_images_decode_from_files_zips_and_bytes_at_one_size(tmp_path: Path) -> None:
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    paths = []
    for k, colour in enumerate(colours):
        paths.append(tmp_path / f"{k}.png")
        Image.new("RGB", (40 + k, 30), colour).save(paths[-1])
    Image.new("L", (20, 20), 128).save(tmp_path / "grey.png")
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as zf:
        zf.write(paths[1], arcname="inside.png")
    sources = [*paths, (tmp_path / "a.zip", "inside.png"), paths[2].read_bytes()]
    images = load_images(sources, 16, 2, lambda _: None)
    assert images.shape == (5, 16, 16, 3) and images.dtype == np.uint8
    assert [tuple(images[k, 8, 8]) for k in range(5)] == [*colours, colours[1], colours[2]]
    assert read_image(tmp_path / "grey.png", 8).shape == (8, 8, 3)  # grey becomes RGB


def test_images_decode_from_plain_tars_even_named_tar_gz(tmp_path: Path) -> None:
    """iNaturalist's archives: plain tars named .tar.gz, read member by member at offsets."""
    colours = [(255, 0, 0), (0, 0, 255)]
    for k, colour in enumerate(colours):
        Image.new("RGB", (30, 20), colour).save(tmp_path / f"{k}.jpg", quality=95)
    with tarfile.open(tmp_path / "photos.tar.gz", "w") as tar:  # "w": uncompressed
        for k in (1, 0):
            tar.add(tmp_path / f"{k}.jpg", arcname=f"Birds/{k}.jpg")
    sources = [(tmp_path / "photos.tar.gz", f"Birds/{k}.jpg") for k in (0, 1)]
    images = load_images(sources, 8, 2, lambda _: None)
    assert np.abs(images[:, 4, 4].astype(int) - np.array(colours)).max() <= 8


def test_batches_normalise_and_flip() -> None:
    images = np.zeros((2, 4, 4, 3), np.uint8)
    images[:, :, 0] = 255  # a white left column
    batches = Batches(images, torch.device("cpu"))
    x = batches(np.array([0, 1]))
    assert x.shape == (2, 3, 4, 4) and x[0, 0, 0, 0] > 2 and x[0, 0, 0, 3] < -2
    flipped = batches(np.array([0]), flip="h")
    assert torch.equal(flipped[0], x[0].flip(2))
