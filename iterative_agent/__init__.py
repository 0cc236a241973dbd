"""IterativeAgent: the BasicAgent loop with no ``answer`` tool, working until its time runs
out (PaperBench's IterativeAgent). Run it with ``python -m scaffolds.iterative``."""

from iterative_agent.agent import IterativeAgent

__all__ = ["IterativeAgent"]
