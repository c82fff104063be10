"""Eigenvalue solves (`task: eigen`, LOBPCG): the residual norm of each eigenpair per iteration.

The report's eigen.residual_history holds one row per iteration with one norm per pair; a pair
that is locked (converged) keeps its last value.
"""

from kinds import finite_points

TASK = "eigen"


def plot(ax, report, label):
    eigen = report.get("eigen") or {}
    rows = eigen.get("residual_history") or []
    values = eigen.get("eigenvalues") or []
    num_pairs = max((len(row) for row in rows), default=0)
    for pair in range(num_pairs):
        history = [row[pair] if pair < len(row) else None for row in rows]
        points = finite_points(history)
        if not points:
            continue
        name = f"{label} pair {pair}"
        if pair < len(values) and isinstance(values[pair], (int, float)):
            name += f" (lambda = {values[pair]:.6g})"
        ax.semilogy([i for i, _ in points], [v for _, v in points], label=name)


def decorate(ax):
    ax.set_xlabel("iteration")
    ax.set_ylabel("eigenpair residual norm ||A x - lambda x||")
    ax.set_title("eigenpairs")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")
