"""Text normalisation's shared flow: the submission first, then a validation that fits what
the time budget has left."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from baselines.kit import call_main
from baselines.mlebench import text_normalization_challenge_english_language as english
from baselines.mlebench import text_normalization_challenge_russian_language as russian
from bench_adapters.mlebench.synthetic import make_prepared
from tests.baselines.helpers import METRIC_LINE


@pytest.mark.parametrize(
    ("script", "cid"),
    [
        (english, "text-normalization-challenge-english-language"),
        (russian, "text-normalization-challenge-russian-language"),
    ],
)
def test_validation_is_sampled_down_to_what_the_budget_has_left(
    script: ModuleType, cid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    public = make_prepared(cid, tmp_path / "data", 30_000, 1_000) / "public"
    call_main(script, public, tmp_path / "tight.csv", time_budget_s=1e-3)
    tight = capsys.readouterr().out
    call_main(script, public, tmp_path / "ample.csv")
    ample = capsys.readouterr().out

    assert METRIC_LINE.search(tight) and METRIC_LINE.search(ample)
    assert "a 2% sample of the sentences, both sides (time budget)" in tight, tight
    assert "time budget" not in ample, ample
    # The budget cut the validation only: the submission is the same.
    assert (tmp_path / "tight.csv").read_bytes() == (tmp_path / "ample.csv").read_bytes()
