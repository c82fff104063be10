"""Densities of states (`task: dos`, KPM): rho(E) on the report's energy grid, in the
Hamiltonian's own energy units, with the stochastic error band when the report has one.

The report's dos.energies and dos.density are the grid and rho(E); dos.density_error is the
standard error of rho over the random vectors (empty for the exact trace). Null (non-finite)
points are left out rather than drawn as zero.
"""

TASK = "dos"


def finite_pairs(xs, ys):
    """(x, y) pairs where both are numbers (the report writes non-finite values as null)."""
    return [(x, y) for x, y in zip(xs, ys)
            if isinstance(x, (int, float)) and isinstance(y, (int, float))]


def plot(ax, report, label):
    dos = report.get("dos") or {}
    energies = dos.get("energies") or []
    points = finite_pairs(energies, dos.get("density") or [])
    if not points:
        return
    line, = ax.plot([e for e, _ in points], [r for _, r in points], label=label)
    errors = dict(finite_pairs(energies, dos.get("density_error") or []))
    band = [(e, r, errors[e]) for e, r in points if e in errors]
    if band:
        ax.fill_between([e for e, _, _ in band], [r - s for _, r, s in band],
                        [r + s for _, r, s in band], color=line.get_color(), alpha=0.25,
                        linewidth=0)


def decorate(ax):
    ax.set_xlabel("energy E")
    ax.set_ylabel("density of states rho(E)")
    ax.set_title("density of states (KPM)")
    ax.grid(True, which="major", alpha=0.3)
    # Below the axes: KPM labels carry the method's parameters and are wide.
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.14))
