"""AIDE solution-tree search: journal of nodes, search policies (greedy, mcts, evolutionary),
operators, review, data preview, and the tree page. The command is ``python -m scaffolds.aide``.

>>> from aide_tree import Aide, AideConfig
>>> status, grade = execute(run, lambda run: Aide(run).search())
"""

from aide_tree.agent import Aide
from aide_tree.config import PRESETS, AideConfig
from aide_tree.journal import FORMAT_VERSION, Journal, JournalError, Node
from aide_tree.metric import Metric, parse_metric
from aide_tree.policies import POLICIES, Decision, evolutionary, greedy, mcts
from aide_tree.preview import data_preview
from aide_tree.reply import parse_reply
from aide_tree.review import Review, parse_review
from aide_tree.submissions import SubmissionCheck, Submissions
from aide_tree.tree_html import write_tree

__all__ = [
    "FORMAT_VERSION",
    "POLICIES",
    "PRESETS",
    "Aide",
    "AideConfig",
    "Decision",
    "Journal",
    "JournalError",
    "Metric",
    "Node",
    "Review",
    "SubmissionCheck",
    "Submissions",
    "data_preview",
    "evolutionary",
    "greedy",
    "mcts",
    "parse_metric",
    "parse_reply",
    "parse_review",
    "write_tree",
]
