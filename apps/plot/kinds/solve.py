"""Linear solves (`task: solve`): the residual norm per iteration, relative to ||b||.

The history is in the report's stopping norm (`stopping_norm`: unpreconditioned ||b - A x||, or
preconditioned ||M^{-1}(b - A x)|| for left-preconditioned GMRES); preconditioned lines are drawn
dashed and say so in the legend.
"""

from kinds import finite_points

TASK = "solve"


def plot(ax, report, label):
    history = report.get("residual_history") or []
    points = finite_points(history)
    if not points:
        return
    # Relative to the first entry: ||b|| from a zero guess, and comparable across stopping norms.
    scale = points[0][1] if points[0][0] == 0 else (report.get("rhs_norm") or 1.0)
    preconditioned = report.get("stopping_norm") == "preconditioned"
    if preconditioned:
        label += " [preconditioned norm]"
    ax.semilogy([i for i, _ in points], [v / scale for _, v in points],
                linestyle="--" if preconditioned else "-", label=label)


def decorate(ax):
    ax.set_xlabel("iteration")
    ax.set_ylabel("residual norm / initial residual norm")
    ax.set_title("linear solve")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")
