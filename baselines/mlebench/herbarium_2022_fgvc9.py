"""herbarium-2022-fgvc9: retrieval by embedding. An ImageNet ConvNeXt-Tiny fine-tuned at
224x224 as a classifier over the species of a sample of the sheets (at most 10 a species,
150k in all; cross-entropy with label smoothing) gives each sheet an embedding; a test sheet
takes the species of its nearest training sheet by cosine similarity (``baselines.herbarium``).

    python -m baselines run --task mlebench/herbarium-2022-fgvc9
    python -m baselines.mlebench.herbarium_2022_fgvc9 --public-dir DATA/herbarium-2022-fgvc9/prepared/public --out submission.csv

Why: 840k pressed specimens of 15.5k North American species, many with a few sheets: neighbours by embedding
find the rare species a classifier's head would not, and macro-F1 weighs every species alike;
a sample of a few sheets a species keeps every one of them in the gallery within the budget.
Sheets are pressed flat, so left-right flips are free views. Reads train_metadata.json
(images and annotations with the category) and test_metadata.json (a list of images), the
JPEGs they name under train_images/ and test_images/, and public/sample_submission.csv (the test ids); writes
``Id,Predicted`` (the category id). Validation: a 10% hold-out stratified by species,
predicted from the rest. Metric: macro-F1 (higher is better).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

from baselines.herbarium import Recipe, classify
from baselines.kit import CORES, Budget, standalone, write_submission
from baselines.torchkit import pick_device, setup

METRIC = "macro_f1"
SEED = 0  # sample, hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
RECIPE = Recipe(
    hub_id=HUB_ID,
    image_size=224,  # the backbone's pretraining size; sheets are 1000x1500
    epochs=10,  # passes over the sampled sheets (the time budget may stop sooner)
    batch_size=128,  # sheets per step
    lr=4e-4,  # AdamW peak learning rate (warm-up, then cosine decay)
    label_smoothing=0.1,  # keeps the embedding of one species from collapsing to a point
    holdout=0.1,  # share of the sample held out for the metric
    max_per_species=10,  # sheets sampled a species ...
    max_train=150_000,  # ... and in all (decoded in memory at image_size)
)
SMOKE = Recipe(  # --smoke: 32-pixel sheets, 20 steps of 16, a higher rate for random weights
    hub_id=HUB_ID, image_size=32, epochs=10, batch_size=16, lr=1e-3, label_smoothing=0.1,
    holdout=0.1, max_per_species=40, max_train=240, max_steps=20, reserve_s=5.0,
)  # fmt: skip
TIME_BUDGET_S = 120 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
    device: str | None = None,
    pretrained: str | None = None,
) -> float:
    budget = Budget(time_budget_s)
    where = pick_device(device)
    setup(SEED, threads, where)
    train_meta = json.loads((public_dir / "train_metadata.json").read_text())
    test_meta = json.loads((public_dir / "test_metadata.json").read_text())
    files = {image["image_id"]: image["file_name"] for image in train_meta["images"]}
    train = pd.DataFrame(train_meta["annotations"])[["image_id", "category_id"]]
    test_files = {str(image["image_id"]): image["file_name"] for image in test_meta}
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"Id": str})
    budget.log(
        f"read metadata: {len(train):,} training sheets of {train['category_id'].nunique():,} "
        f"species; {len(test):,} test sheets; device {where}"
    )

    score, predicted = classify(
        [public_dir / "train_images" / files[i] for i in train["image_id"]],
        train["category_id"].to_numpy(),
        [public_dir / "test_images" / test_files[i] for i in test["Id"]],
        SMOKE if smoke else RECIPE,
        budget=budget,
        device=where,
        pretrained=pretrained,
        threads=threads,
        seed=SEED,
    )
    write_submission(pd.DataFrame({"Id": test["Id"], "Predicted": predicted}), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
