"""PNG plots of a grid summary (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

import math
from pathlib import Path

from scaffolds.grid.aggregate import ComboSummary

ANY_MEDAL_PNG = "any_medal.png"
PASS_AT_K_PNG = "pass_at_k.png"


def _figure(width: float, height: float):  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def any_medal_plot(summaries: list[ComboSummary], path: Path) -> Path:
    """Grouped bars: any-medal rate per scaffold (groups; AIDE once per policy when the grid
    compares policies) x model (bars), SEM error bars (none where the SEM is NaN: one seed)."""
    scaffolds = list(dict.fromkeys(s.arm for s in summaries))
    models = list(dict.fromkeys(s.model for s in summaries))
    fig = _figure(
        max(5.0, 1.6 * len(scaffolds) * max(1, len(models)) ** 0.5 + 2), 4.0 + 0.2 * len(models)
    )
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(models))
    for j, model in enumerate(models):
        xs, heights, errors = [], [], []
        for i, scaffold in enumerate(scaffolds):
            found = [s for s in summaries if s.arm == scaffold and s.model == model]
            if not found:
                continue
            rate = found[0].rates["any_medal"]
            xs.append(i - 0.4 + width * (j + 0.5))
            heights.append(rate.mean)
            errors.append(0.0 if math.isnan(rate.sem) else rate.sem)
        ax.bar(xs, heights, width, yerr=errors, capsize=4, label=model)
    ax.set_xticks(range(len(scaffolds)), scaffolds)
    ax.set_ylabel("any medal (% of tasks)")
    ax.set_ylim(0, 105)
    seeds = max((len(s.seeds) for s in summaries), default=0)
    ax.set_title(f"Any-medal rate, mean ± SEM over {seeds} seed(s)")
    fig.legend(loc="outside lower center", fontsize="small", title="model")
    fig.savefig(path)
    return path


def pass_at_k_plot(summaries: list[ComboSummary], path: Path) -> Path:
    """pass@k (a medal is a pass) against k, one line per scaffold x model."""
    fig = _figure(6.0, 4.0 + 0.2 * len(summaries))
    ax = fig.add_subplot()
    for s in summaries:
        ks = list(range(1, len(s.pass_at) + 1))
        ax.plot(ks, s.pass_at, marker="o", label=f"{s.arm} / {s.model}")
    kmax = max((len(s.pass_at) for s in summaries), default=1)
    ax.set_xticks(range(1, kmax + 1))
    ax.set_xlabel("k (runs per task)")
    ax.set_ylabel("pass@k (% of tasks with a medal)")
    ax.set_ylim(0, 105)
    ax.set_title("pass@k, unbiased estimator, averaged over tasks")
    fig.legend(loc="outside lower center", fontsize="small")
    fig.savefig(path)
    return path
