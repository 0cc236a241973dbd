"""Known problems of upstream MLE-bench's competitions, as data: answers readable from public
files, broken preparation, grading traps and crowded leaderboards.

Sources: upstream's README, section "Known Issues", and its issue tracker (numbers given), at
HEAD ``783b15a``; and what reimplementing the graders and fixtures here found in upstream's
``prepare.py`` and ``grade.py`` ("found here"). Upstream keeps these competitions in its
scores unchanged, so this package grades them as upstream does; the list says what a result on
them may mean. ``python -m bench_adapters list --known-issues`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["leak", "preparation", "grading", "leaderboard", "environment"]


@dataclass(frozen=True)
class KnownIssue:
    kind: Kind
    """leak (public files give the answers away), preparation (the prepared data is wrong),
    grading (a grader trap), leaderboard (medals mean little), environment (upstream's code
    fails outside its pinned libraries)."""
    text: str
    source: str

    def line(self) -> str:
        return f"[{self.kind}] {self.text} ({self.source})"


_CROWDED = KnownIssue(
    "leaderboard",
    "crowded leaderboard: very little difference between the top score and the median",
    "upstream README",
)

KNOWN_ISSUES: dict[str, tuple[KnownIssue, ...]] = {
    "champs-scalar-coupling": (
        KnownIssue(
            "preparation",
            "public structures.csv lacks the test molecules, so their geometry is missing",
            "upstream README, #70",
        ),
        KnownIssue(
            "grading",
            "a perfect type scores log(0) = -inf, and duplicate ids pass the merge and weigh twice",
            "found here",
        ),
    ),
    "dog-breed-identification": (
        KnownIssue(
            "leak",
            "the images come from the public, labelled Stanford Dogs dataset",
            "upstream #128",
        ),
    ),
    "h-and-m-personalized-fashion-recommendations": (
        KnownIssue(
            "grading",
            "the answers' article ids lost their leading zero while the sample submission's "
            "keep it, so predictions written like the sample never match",
            "found here",
        ),
    ),
    "hms-harmful-brain-activity-classification": (
        KnownIssue(
            "grading",
            "eeg_id repeats in the answers and upstream pairs rows after numpy's unstable "
            "default sort, so its own score depends on the CPU",
            "found here",
        ),
    ),
    "hotel-id-2021-fgvc8": (
        KnownIssue(
            "grading",
            "hotel ids read as floats become text such as '123.0', which never matches",
            "found here",
        ),
    ),
    "hubmap-kidney-segmentation": (
        KnownIssue(
            "leak",
            "the public test {image_id}.json files give a close-to-perfect score away",
            "upstream README, PR #98",
        ),
    ),
    "icecube-neutrinos-in-deep-ice": (
        KnownIssue("preparation", "the prepared data fails its checksums", "upstream README, #58"),
    ),
    "invasive-species-monitoring": (
        KnownIssue(
            "preparation",
            "prepare.py archives the image folders with py7zr's write(), which stores the "
            "folder entry alone: the public train.7z and test.7z hold no images",
            "found here",
        ),
    ),
    "jigsaw-toxic-comment-classification-challenge": (_CROWDED,),
    "multi-modal-gesture-recognition": (
        KnownIssue(
            "leak",
            "the public test .mat files hold the test labels (Video.Labels)",
            "upstream README, #77",
        ),
    ),
    "random-acts-of-pizza": (
        KnownIssue(
            "leak",
            "the field giver_username_if_known gives the outcome away; upstream says the "
            "competition should be dropped",
            "upstream README, #108",
        ),
    ),
    "ranzcr-clip-catheter-line-classification": (
        KnownIssue(
            "preparation",
            "the sample submission lacks two of the answers' label columns",
            "upstream README, #30",
        ),
    ),
    "smartphone-decimeter-2022": (
        KnownIssue(
            "leak",
            "the public test span_log.nmea files make a perfect score trivial",
            "upstream README, #93",
        ),
    ),
    "tabular-playground-series-dec-2021": (_CROWDED,),
    "tabular-playground-series-may-2022": (_CROWDED,),
    "tensorflow-speech-recognition-challenge": (
        KnownIssue(
            "preparation",
            "the test labels are not mapped to the 12 scored classes, so there are far more "
            "test labels than there should be",
            "upstream README, #63",
        ),
        KnownIssue(
            "preparation",
            "the test speakers are not disjoint from the training speakers",
            "upstream README",
        ),
    ),
    "tgs-salt-identification-challenge": (
        KnownIssue(
            "environment",
            "the grader calls DataFrame.applymap, gone in pandas 3: upstream's code fails "
            "outside its pinned pandas 2.2",
            "found here",
        ),
    ),
    "tweet-sentiment-extraction": (
        KnownIssue(
            "grading",
            "one row whose truth and prediction are both empty divides by zero and voids the "
            "whole submission",
            "found here",
        ),
    ),
    "us-patent-phrase-to-phrase-matching": (
        KnownIssue(
            "grading",
            "a constant prediction has no Pearson correlation: the score is NaN, valid but "
            "never a medal",
            "found here",
        ),
    ),
}
"""Competition id -> its known issues, most serious first."""


def known_issues(competition_id: str) -> tuple[KnownIssue, ...]:
    """The known issues of one competition (none for most)."""
    return KNOWN_ISSUES.get(competition_id, ())
