#!/usr/bin/env python3
"""kelp_plot: turns one or several `kelp run` JSON reports into a PNG convergence plot.

    python3 apps/plot/kelp_plot.py REPORT.json [REPORT.json ...] -o plot.png [--title TEXT]

Each report is drawn by the plotter of its `task` field (kinds/<task>.py): `solve` draws the
residual norm per iteration, `eigen` the residual norm of each eigenpair per iteration, `dos` the
KPM density of states rho(E) with its stochastic error band. Reports of
the same task share one panel (one line per report, or per eigenpair); reports of different tasks
get a panel each. A new report kind is a new module in kinds/ (see kinds/__init__.py); nothing
here changes.

Needs Python 3 and matplotlib (Debian: python3-matplotlib, installed by scripts/install_deps.sh).
Exit codes: 0 written, 1 bad input (unreadable report, unknown task), 3 matplotlib missing.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree (the test runs from it)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kinds import plotters  # noqa: E402  (after the path set-up above)
from output_path import output_problem  # noqa: E402


def load_report(path):
    """The parsed report; raises ValueError naming the file when it is not a kelp run report."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: cannot read a JSON report: {error}") from error
    if not isinstance(report, dict) or "task" not in report:
        raise ValueError(f"{path}: not a kelp run report (no 'task' field)")
    return report


def label_of(path, report, several):
    """The legend label: the file name, plus the solver's name (its summary up to the first
    parenthesis) when several reports share the figure."""
    name = os.path.splitext(os.path.basename(path))[0]
    solver = report.get("solver")
    if several and isinstance(solver, str) and solver.split("(")[0].strip():
        return f"{name} ({solver.split('(')[0].strip()})"
    return name


def main(argv=None):
    parser = argparse.ArgumentParser(description="Convergence plot (PNG) of kelp run JSON reports.")
    parser.add_argument("reports", nargs="+", help="JSON reports written by `kelp run --report`")
    parser.add_argument("-o", "--output", required=True, help="the PNG file to write")
    parser.add_argument("--title", default=None, help="the figure title")
    args = parser.parse_args(argv)
    problem = output_problem(args.output, args.reports)
    if problem:
        print(f"kelp_plot: {problem}", file=sys.stderr)
        return 1

    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("kelp_plot: matplotlib is missing; install python3-matplotlib "
              "(scripts/install_deps.sh)", file=sys.stderr)
        return 3

    kinds = plotters()
    try:
        reports = [(path, load_report(path)) for path in args.reports]
    except ValueError as error:
        print(f"kelp_plot: {error}", file=sys.stderr)
        return 1
    tasks = []  # panel order: first appearance
    for path, report in reports:
        task = report["task"]
        if task not in kinds:
            print(f"kelp_plot: {path}: no plotter for task '{task}'; known: "
                  f"{', '.join(sorted(kinds))}", file=sys.stderr)
            return 1
        if task not in tasks:
            tasks.append(task)

    figure, axes = plt.subplots(1, len(tasks), figsize=(6.4 * len(tasks), 4.8), squeeze=False)
    several = len(reports) > 1
    for ax, task in zip(axes[0], tasks):
        kind = kinds[task]
        for path, report in reports:
            if report["task"] == task:
                kind.plot(ax, report, label_of(path, report, several))
        kind.decorate(ax)
    if args.title:
        figure.suptitle(args.title)
    figure.tight_layout()
    figure.savefig(args.output, format="png", dpi=100, bbox_inches="tight")  # legends below axes
    plt.close(figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
