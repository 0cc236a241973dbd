"""Audio for the baselines: decoding with soundfile, log-mel spectrograms and MFCCs in numpy.

soundfile reads ``.wav`` and ``.aif`` (libsndfile ships in its wheel; no system codec).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from baselines.kit import zip_member


def read(source: Path | tuple[Path, str]) -> tuple[np.ndarray, int]:
    """Mono float32 samples and the sample rate, from a file or a zip member."""
    import soundfile as sf

    if isinstance(source, tuple):
        data, rate = sf.read(io.BytesIO(zip_member(*source)), dtype="float32")
    else:
        data, rate = sf.read(source, dtype="float32")
    return (data if data.ndim == 1 else data.mean(axis=1)), int(rate)


def mel_filters(rate: int, n_fft: int, n_mels: int, f_min: float, f_max: float) -> np.ndarray:
    """Triangular filters, equally spaced on the mel scale, (n_mels, n_fft // 2 + 1)."""

    def mel(hz: np.ndarray) -> np.ndarray:
        return 2595 * np.log10(1 + hz / 700)

    edges = 700 * (
        10 ** (np.linspace(mel(np.array(f_min)), mel(np.array(f_max)), n_mels + 2) / 2595) - 1
    )
    bins = np.fft.rfftfreq(n_fft, 1 / rate)
    lower, centre, upper = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    rising = (bins - lower) / (centre - lower)
    falling = (upper - bins) / (upper - centre)
    return np.maximum(0, np.minimum(rising, falling))


def log_mel(
    samples: np.ndarray, rate: int, n_fft: int, hop: int, n_mels: int, f_min: float, f_max: float
) -> np.ndarray:
    """(n_mels, frames) log power on the mel scale, low frequencies first."""
    samples = np.pad(samples, (0, max(0, n_fft - len(samples))))
    frames = 1 + (len(samples) - n_fft) // hop
    index = np.arange(n_fft)[None, :] + hop * np.arange(frames)[:, None]
    power = np.abs(np.fft.rfft(samples[index] * np.hanning(n_fft), axis=1)) ** 2
    return np.log(mel_filters(rate, n_fft, n_mels, f_min, f_max) @ power.T + 1e-10)


def mfcc(mel: np.ndarray, n: int) -> np.ndarray:
    """The first ``n`` cepstral coefficients per frame: a type-II DCT of the log-mel bands."""
    bands = mel.shape[0]
    k = np.arange(n)[:, None]
    basis = np.cos(np.pi * k * (np.arange(bands)[None, :] + 0.5) / bands)
    return basis @ mel
