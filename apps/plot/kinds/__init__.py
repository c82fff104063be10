"""Plotters of kelp run reports, one module per report kind (the report's `task` field).

A module of this package is a plotter when it defines
    TASK = "<task>"                       # the `task` value of the reports it draws
    def plot(ax, report, label): ...      # draws one report on a matplotlib Axes
    def decorate(ax): ...                 # axis labels, scales, legend, once per panel
Adding a kind (say `dos`, a KPM density of states) means adding kinds/dos.py; the discovery below
finds it, and kelp_plot.py dispatches to it.
"""

import importlib
import pkgutil


def plotters():
    """{task: module} for every plotter module in this package."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        task = getattr(module, "TASK", None)
        if task is not None:
            found[task] = module
    return found


def finite_points(values):
    """(iteration, value) pairs of a history, without the nulls (non-finite values) and the
    non-positive values a log scale cannot show."""
    return [(i, v) for i, v in enumerate(values) if isinstance(v, (int, float)) and v > 0]
