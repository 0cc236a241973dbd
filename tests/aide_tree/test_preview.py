"""The data preview stays small whatever the data: sampled tables, summarised folders."""

from __future__ import annotations

import json
from pathlib import Path

from aide_tree import data_preview
from aide_tree.preview import SAMPLE_ROWS


def test_a_large_table_is_sampled_and_counted(tmp_path: Path) -> None:
    rows = 60_000  # about 3 MB: counted line by line, described from its first rows only
    with (tmp_path / "train.csv").open("w") as f:
        f.write("id,feature,city,target\n")
        for i in range(rows):
            f.write(f"{i},{i * 0.5},{['Oslo', 'Lima', 'Pune'][i % 3]},{i % 2}\n")
    (tmp_path / "test.csv").write_text("id,feature,city\n1,0.5,Oslo\n")
    text = data_preview(tmp_path)
    assert len(text) <= 6000
    assert f"train.csv: {rows} rows, 4 columns (from the first {SAMPLE_ROWS} rows)" in text
    assert "city (" in text and "'Oslo'" in text
    assert f"{(SAMPLE_ROWS - 1) * 0.5:.4g}" in text  # the range seen in the sample, not the file's


def test_wide_tables_and_big_folders_fit_the_cap(tmp_path: Path) -> None:
    columns = [f"sensor_{i:03d}" for i in range(400)]
    (tmp_path / "wide.csv").write_text(",".join(columns) + "\n" + ",".join("1" * 400) + "\n")
    images = tmp_path / "images"
    images.mkdir()
    for i in range(300):
        (images / f"{i}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "meta.json").write_text(json.dumps([{"id": 1, "label": "cat"}]))
    (tmp_path / "description.md").write_text("# Task\n")
    text = data_preview(tmp_path, max_chars=6000)
    assert len(text) <= 6000
    assert "... 300 files (300 .png)" in text
    assert "wide.csv: 1 rows, 400 columns: sensor_000, sensor_001" in text  # compact form
    assert "meta.json: a JSON list of 1 items of objects with keys id, label" in text
    assert "starts with" not in text  # description.md is in the instructions already

    tiny = data_preview(tmp_path, max_chars=800)
    assert len(tiny) <= 800 and "characters elided" in tiny
