"""A resumed loop tells a resumable model where to continue; a live one has nowhere to."""

from __future__ import annotations

import json
from pathlib import Path

from scaffolds.protocols import ResumableModel
from scaffolds.replay import RecordingModel, ReplayModel, ScriptedModel


def cassette(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps({"content": f"reply {i}"}) + "\n" for i in range(n)))
    return path


def test_a_replay_resumes_at_the_response_it_is_told(tmp_path: Path) -> None:
    replay = ReplayModel(cassette(tmp_path / "c.jsonl", 3))
    assert isinstance(replay, ResumableModel)
    replay.resume_at(2)
    assert replay.complete([]).content == "reply 2"


def test_a_recording_forwards_to_the_replay_it_wraps(tmp_path: Path) -> None:
    recording = RecordingModel(ReplayModel(cassette(tmp_path / "c.jsonl", 3)), tmp_path / "r")
    assert isinstance(recording, ResumableModel)
    recording.resume_at(1)
    assert recording.complete([]).content == "reply 1"
    assert json.loads((tmp_path / "r").read_text())["content"] == "reply 1"


def test_a_live_model_is_not_resumable_and_a_recording_of_one_ignores_it(tmp_path: Path) -> None:
    scripted = ScriptedModel(lambda messages, tools: {"content": "fresh"})
    assert not isinstance(scripted, ResumableModel)
    recording = RecordingModel(scripted, tmp_path / "r")
    recording.resume_at(5)
    assert recording.complete([]).content == "fresh" and scripted.calls == 1


def test_a_replay_is_asked_in_order_and_a_recording_knows_its_live_models_window(
    tmp_path: Path,
) -> None:
    """What a judge asks of its model through a recording, without reaching into it: whether
    answers come in a fixed order (one question at a time) and the window of the answering
    model (set here by ``--context-window``, so no price table is read)."""
    from scaffolds.judge import Judge
    from scaffolds.model import LiteLLMModel, ModelConfig
    from scaffolds.replay import known_window, replays

    replay = ReplayModel(cassette(tmp_path / "c.jsonl", 1))
    assert replays(RecordingModel(replay, tmp_path / "r")) and Judge(replay, workers=8).workers == 1
    live = LiteLLMModel(ModelConfig(model="openai/some-server-model", context_window=12345))
    recording = RecordingModel(live, tmp_path / "live")
    assert not replays(recording) and Judge(recording, workers=8).workers == 8
    assert known_window(recording) == 12345 == known_window(live)
    assert known_window(RecordingModel(replay, tmp_path / "r2")) is None
