"""Shared runtime for every scaffold: model client, record/replay, run records, budgets, context."""

import os

# litellm fetches its model price map from the network on import unless told otherwise.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from scaffolds.budget import Budget, LimitReached, parse_duration
from scaffolds.messages import (
    ContextWindowExceeded,
    ModelError,
    ModelExhausted,
    ModelResponse,
    ToolCall,
    Usage,
)
from scaffolds.model import LiteLLMModel, ModelConfig, make_model
from scaffolds.protocols import Message, Model, Task
from scaffolds.record import Redactor, RunRecord
from scaffolds.replay import RecordingModel, ReplayModel, ScriptedModel
from scaffolds.session import ModelSession
from scaffolds.timefmt import format_hms

__all__ = [
    "Budget",
    "ContextWindowExceeded",
    "LimitReached",
    "LiteLLMModel",
    "Message",
    "Model",
    "ModelConfig",
    "ModelError",
    "ModelExhausted",
    "ModelResponse",
    "ModelSession",
    "RecordingModel",
    "Redactor",
    "ReplayModel",
    "RunRecord",
    "ScriptedModel",
    "Task",
    "ToolCall",
    "Usage",
    "format_hms",
    "make_model",
    "parse_duration",
]
