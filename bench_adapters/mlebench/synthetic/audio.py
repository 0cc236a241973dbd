"""Synthesising the audio fixtures: coloured noise, chirps, and files at the real rates.

Files are written with soundfile (libsndfile, shipped in its wheel): 16-bit PCM ``.wav`` or
``.aif``. A label adds a call (a chirp in a band of its own) to background noise with
distractors, which is the signal a model learns.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def noise(rng: np.random.Generator, n: int, colour: float = 1.0, level: float = 0.05) -> np.ndarray:
    """Noise whose power falls as 1/f**colour (0 white, 1 pink), scaled to ``level`` RMS."""
    spectrum = np.fft.rfft(rng.normal(size=n))
    f = np.maximum(np.arange(len(spectrum)), 1)
    signal = np.fft.irfft(spectrum / f ** (colour / 2), n)
    return level * signal / (signal.std() + 1e-12)


def chirp(
    rate: int, seconds: float, f0: float, f1: float, amplitude: float, vibrato: float = 0.0
) -> np.ndarray:
    """A tone sweeping from ``f0`` to ``f1`` Hz with a Hann envelope (and an optional
    ``vibrato`` in Hz of frequency wobble at 20 Hz)."""
    t = np.arange(int(rate * seconds)) / rate
    freq = f0 + (f1 - f0) * t / max(seconds, 1e-9) + vibrato * np.sin(2 * np.pi * 20 * t)
    phase = 2 * np.pi * np.cumsum(freq) / rate
    return amplitude * np.hanning(len(t)) * np.sin(phase)


def add(track: np.ndarray, sound: np.ndarray, start: int) -> None:
    end = min(len(track), start + len(sound))
    track[start:end] += sound[: end - start]


def save(path: Path, samples: np.ndarray, rate: int, kind: str) -> None:
    """``kind``: ``WAV`` or ``AIFF``; 16-bit PCM, clipped to [-1, 1]."""
    import soundfile as sf

    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(path, np.clip(samples, -1, 1).astype(np.float32), rate, format=kind, subtype="PCM_16")


def spectrogram(samples: np.ndarray, n_fft: int = 512, hop: int = 128) -> np.ndarray:
    """Log-magnitude short-time Fourier transform, (frequency bins, frames), low bins first."""
    frames = 1 + (len(samples) - n_fft) // hop
    index = np.arange(n_fft)[None, :] + hop * np.arange(frames)[:, None]
    power = np.abs(np.fft.rfft(samples[index] * np.hanning(n_fft), axis=1)) ** 2
    return np.log10(power.T + 1e-10)
