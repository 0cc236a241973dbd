"""The nine TAM tasks whose competition MLE-bench has: graded by this package's MLE-bench graders.

The answers (``private/test_labels.csv``) have that grader's answer columns. Before its metric
runs, the submission passes the same structural check as every TAM table: the id column and
the scored columns present, one row per test id, no repeats and no strangers (MLE-bench's taxi
grader, for one, checks no ids at all). Rows may come in any order.

| task | competition | id | columns |
| --- | --- | --- | --- |
| audio/easy | mlsp-2013-birds | Id | Probability |
| audio/medium | tensorflow-speech-recognition-challenge | fname | label |
| image/easy | denoising-dirty-documents | id | value |
| image/medium | statoil-iceberg-classifier-challenge | id | is_iceberg |
| multimodal/easy | multi-modal-gesture-recognition | Id | Sequence |
| tabular/easy | new-york-city-taxi-fare-prediction | key | fare_amount |
| tabular/hard | stanford-covid-vaccine | id_seqpos | the 3 scored and 2 unscored targets |
| text/easy | text-normalization-challenge-english-language | id | after |
| text/medium | lmsys-chatbot-arena | id | winner_model_a, winner_model_b, winner_tie |

Cell types are checked first, so that a bad cell is an invalid submission naming its column and
row, never an error inside a metric: the numeric columns (all but ``label``, ``Sequence`` and
``after``) must hold finite numbers on every row, ``label`` a non-blank label. ``after`` may be
blank (an empty prediction); a blank ``Sequence`` passes this check but MLE-bench's gesture grader
then reads it as the text "nan", not a sequence of numbers, and the submission is invalid, as
upstream's is. Of stanford-covid-vaccine's targets only the three
scored ones are numeric columns; the two unscored ones must be present but are never read.

multimodal/easy follows MLE-bench's (and upstream TAM's grader's) ``Id,Sequence`` format, not
the spec's ragged ``SessionID,label1,...`` line: a space-separated ``Sequence`` of labels 1-20.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bench_adapters.mlebench.graders import get_grader
from bench_adapters.tam.graders.common import aligned, read_table


@dataclass(frozen=True)
class Shared:
    competition_id: str
    id_col: str
    columns: tuple[str, ...]
    numbers: tuple[str, ...] = ()
    """Columns whose every cell must be a finite number."""
    labels: tuple[str, ...] = ()
    """Columns whose every cell must be a non-blank label."""

    def __call__(self, submission: Path, answers: Path) -> float:
        spec = get_grader(self.competition_id)
        assert spec is not None, self.competition_id
        truth = read_table(answers)
        ordered, truth = aligned(
            read_table(submission),
            truth,
            self.id_col,
            list(self.columns),
            numbers=self.numbers,
            labels=self.labels,
        )
        return float(spec.grade(ordered, truth))


COVID_SCORED = ("reactivity", "deg_Mg_pH10", "deg_Mg_50C")
COVID = ("reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C")
LMSYS = ("winner_model_a", "winner_model_b", "winner_tie")


def _numeric(competition_id: str, id_col: str, *columns: str) -> Shared:
    return Shared(competition_id, id_col, columns, numbers=columns)


GRADERS = {
    "audio/easy": _numeric("mlsp-2013-birds", "Id", "Probability"),
    "audio/medium": Shared(
        "tensorflow-speech-recognition-challenge", "fname", ("label",), labels=("label",)
    ),
    "image/easy": _numeric("denoising-dirty-documents", "id", "value"),
    "image/medium": _numeric("statoil-iceberg-classifier-challenge", "id", "is_iceberg"),
    "multimodal/easy": Shared("multi-modal-gesture-recognition", "Id", ("Sequence",)),
    "tabular/easy": _numeric("new-york-city-taxi-fare-prediction", "key", "fare_amount"),
    "tabular/hard": Shared("stanford-covid-vaccine", "id_seqpos", COVID, numbers=COVID_SCORED),
    "text/easy": Shared("text-normalization-challenge-english-language", "id", ("after",)),
    "text/medium": _numeric("lmsys-chatbot-arena", "id", *LMSYS),
}
