"""BasicAgent: a ReAct loop over the shared tools that ends with ``answer`` (PaperBench's
BasicAgent). Run it with ``python -m scaffolds.basic``."""

from basic_agent.agent import BasicAgent, Submitted
from basic_agent.config import BasicConfig
from basic_agent.history import committed_history

__all__ = ["BasicAgent", "BasicConfig", "Submitted", "committed_history"]
