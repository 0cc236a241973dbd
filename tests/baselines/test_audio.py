"""The audio side of the baselines: decoding, mel filters, log-mel images, MFCCs."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import soundfile as sf

from baselines.audio import log_mel, mel_filters, mfcc, read


def test_a_tone_lights_up_its_band_and_files_decode_from_zips(tmp_path: Path) -> None:
    rate = 2000
    tone = 0.5 * np.sin(2 * np.pi * 150 * np.arange(2 * rate) / rate).astype(np.float32)
    sf.write(tmp_path / "a.aif", tone, rate, format="AIFF", subtype="PCM_16")
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as zf:
        zf.write(tmp_path / "a.aif", arcname="clips/a.aif")
    samples, got_rate = read((tmp_path / "a.zip", "clips/a.aif"))
    assert got_rate == rate and np.allclose(samples, read(tmp_path / "a.aif")[0])
    assert np.abs(samples - tone).max() < 1e-3
    image = log_mel(samples, rate, 256, 16, 64, 20, 500)
    filters = mel_filters(rate, 256, 64, 20, 500)
    freqs = np.fft.rfftfreq(256, 1 / rate)
    centres = freqs[filters.argmax(axis=1)]
    assert abs(centres[image.mean(axis=1).argmax()] - 150) < 20  # the loudest band holds 150 Hz
    assert mfcc(image, 20).shape == (20, image.shape[1])
