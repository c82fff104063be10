#!/usr/bin/env python3
"""kpm_roofline: the roofline plot of `kelp-bench-kpm` runs (issue 12).

    python3 apps/plot/kpm_roofline.py RUN.jsonl [RUN.jsonl ...] -o roofline.png [--title TEXT]

Each RUN.jsonl is the JSON-lines output of one kelp-bench-kpm run (its triad line, config line and
one measurement line per implementation and block size R). For each run the plot draws the
memory roof, Gflop/s = (triad GB/s) x (flops per byte), and one point per measurement at the
KPM paper's minimum intensity 1 / B_min(R) (B_min(R) = (260/R + 48)/138 bytes/flop): naive and
augmented at R = 1, blocked at each R, labelled with R. Both axes are logarithmic. The flop
roof is not drawn: the benchmark does not measure a flop peak.

Needs matplotlib (python3-matplotlib). Exit codes: 0 written, 1 bad input, 3 no matplotlib.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from output_path import output_problem  # noqa: E402  (after the path set-up above)


def read_run(path):
    """(label, triad GB/s, [(implementation, R, intensity, gflops)]) of one benchmark log."""
    triad, label, points = None, os.path.splitext(os.path.basename(path))[0], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            record = json.loads(line)
            if record.get("bench") != "kpm":
                continue
            kind = record.get("kind")
            if kind == "triad":
                triad = record["median_gbytes_per_s"]
            elif kind == "config":
                label += f" ({record.get('execution_space', '?')}, {record.get('num_rows', '?')} rows)"
            elif kind == "measurement":
                points.append((record["implementation"], record["R"], 1.0 / record["b_min_paper"],
                               record["gflops"]))
    if triad is None or not points:
        raise ValueError(f"{path}: not a kelp-bench-kpm log (needs its triad and measurement lines)")
    return label, triad, points


def main(argv=None):
    parser = argparse.ArgumentParser(description="Roofline plot (PNG) of kelp-bench-kpm runs.")
    parser.add_argument("runs", nargs="+", help="JSON-lines logs of kelp-bench-kpm")
    parser.add_argument("-o", "--output", required=True, help="the PNG file to write")
    parser.add_argument("--title", default="KPM moments: roofline (memory roof from the triad)")
    args = parser.parse_args(argv)
    problem = output_problem(args.output, args.runs)
    if problem:
        print(f"kpm_roofline: {problem}", file=sys.stderr)
        return 1
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("kpm_roofline: matplotlib is missing; install python3-matplotlib", file=sys.stderr)
        return 3
    try:
        runs = [read_run(path) for path in args.runs]
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as error:
        print(f"kpm_roofline: {error}", file=sys.stderr)
        return 1

    figure, ax = plt.subplots(figsize=(7.5, 5.0))
    markers = {"naive": "s", "augmented": "^", "blocked": "o"}
    for label, triad, points in runs:
        lo = min(p[2] for p in points) / 1.5
        hi = max(p[2] for p in points) * 1.5
        roof, = ax.loglog([lo, hi], [triad * lo, triad * hi], linestyle="--",
                          label=f"{label}: memory roof, triad {triad:.0f} GB/s")
        for implementation in ("naive", "augmented", "blocked"):
            chosen = [p for p in points if p[0] == implementation]
            if not chosen:
                continue
            ax.loglog([p[2] for p in chosen], [p[3] for p in chosen], linestyle="none",
                      marker=markers[implementation], color=roof.get_color(),
                      fillstyle="full" if implementation == "blocked" else "none",
                      label=f"{label}: {implementation}")
            if implementation == "blocked":
                for _, r, x, y in chosen:
                    ax.annotate(f"R={r}", (x, y), textcoords="offset points", xytext=(4, -10),
                                fontsize="x-small", color=roof.get_color())
    ax.set_xlabel("flops per byte, 1 / B_min(R) (KPM paper's minimum code balance)")
    ax.set_ylabel("Gflop/s")
    ax.set_title(args.title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.14))
    figure.savefig(args.output, format="png", dpi=100, bbox_inches="tight")
    plt.close(figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
