"""Each node's share of the machine when several run at once: CPU threads and GPUs.

``shares`` is a pure function of the counts, so it is tested on made-up machines. Threads:
the cores divided evenly among the nodes (at least one), or ``node_cpus``. GPUs: with at least
as many as the nodes need, each node gets its own (``node_gpus`` each, default an even split);
with fewer, the nodes share them round-robin and the share says so. A node's share reaches its
kernel as environment variables (``kernel_env``): the BLAS and OpenMP thread counts, and
``CUDA_VISIBLE_DEVICES`` when the run sees GPUs at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
"""The variables that bound a process's BLAS and OpenMP threads."""


@dataclass(frozen=True)
class Share:
    """What one node's kernel may use."""

    threads: int
    gpus: tuple[str, ...]
    """GPU ids for ``CUDA_VISIBLE_DEVICES`` (empty: none)."""
    shared: bool
    """Whether another node in flight may use the same GPU."""


def shares(
    nodes: int,
    cpus: int,
    gpus: Sequence[str],
    node_cpus: int | None = None,
    node_gpus: int | None = None,
) -> list[Share]:
    """One share for each of ``nodes`` nodes, on ``cpus`` cores and the GPUs ``gpus``."""
    threads = node_cpus or max(1, cpus // nodes)
    if not gpus:
        return [Share(threads, (), False) for _ in range(nodes)]
    each = node_gpus or max(1, len(gpus) // nodes)
    shared = each * nodes > len(gpus)
    picks = [
        tuple(gpus[(i * each + j) % len(gpus)] for j in range(min(each, len(gpus))))
        for i in range(nodes)
    ]
    return [Share(threads, pick, shared) for pick in picks]


def kernel_env(share: Share, sees_gpus: bool) -> dict[str, str]:
    """The environment a node's kernel gets for its share."""
    env = {name: str(share.threads) for name in THREAD_VARIABLES}
    if sees_gpus:
        env["CUDA_VISIBLE_DEVICES"] = ",".join(share.gpus)
    return env


def describe(all_shares: Sequence[Share]) -> str:
    """One line for the run record: what each node in flight gets."""
    first = all_shares[0]
    text = f"{len(all_shares)} nodes in flight, {first.threads} CPU threads each"
    if not first.gpus:
        return text + ", no GPU"
    if first.shared:
        used = sorted({g for s in all_shares for g in s.gpus})
        return text + f"; the nodes share GPU {', '.join(used)}"
    return text + "; GPUs " + "; ".join(",".join(s.gpus) for s in all_shares) + " (one set each)"
