#!/usr/bin/env python3
"""cluster/project.py - what the reproduction would take on a cluster, from
measured task times (README.md, "Running on a cluster").

Inputs:
  --runs DIR        a results folder written with `hwprof run --threads 1`:
                    every DIR/<paper>/<stem>.run.json gives one task per job
                    (trace window) with its seconds (the "jobs" list); a run
                    with --max-events is scaled up by the window's events
                    over the events fed (from the sidecar <stem>.json)
  --cpu-log FILE    optional, repeatable: lines "CONFIG wall W user U sys S" (GNU time of
                    each config's run); each config's job seconds are scaled
                    by (U + S) / W, i.e. to CPU seconds (a loaded machine
                    stretches wall time, not CPU time)
  --estimate CONFIG=SECONDS:JOBS   repeatable: a config known only by its
                    total (seconds of one thread at the measured scale, e.g.
                    extrapolated from a prefix of each window), spread
                    evenly over its JOBS; a config of --runs is replaced
  --bbv S,S,...     seconds of each workload's basic-block-vector + SimPoint task
  --capture S,...   seconds of each window capture task
  --windows S       seconds of one windows task (rename, list)
  --final S         seconds of the final task (merge every config, draw)
  --scale-bbv F, --scale-capture F, --scale-run F
                    factors from the measured scale to the projected one
                    (e.g. the instruction ratio paper/default)
  --nodes N,...     node counts to project; --cores C cores per node [2]

Model: the stages run one after the other (each array depends on the
previous one: bbv -> capture -> windows -> runs -> final), every task on one
core except captures (two: Valgrind and the packer); within a stage tasks
are placed longest first on the free core (LPT list scheduling).  Printed:
per stage the tasks, CPU hours, the longest task, and per node count the
stage times and the total; the critical path (one core per task, unlimited
nodes) is the sum of the longest tasks.
Sample:
  stage     tasks  cpu-h  longest   10 nodes  100 nodes
  bbv           8   0.61  9.9 min   ...
"""
import argparse
import glob
import heapq
import json
import os
import sys


def lpt(tasks, slots):
    """Makespan of tasks (seconds) on `slots` identical slots, longest first."""
    if not tasks:
        return 0.0
    heap = [0.0] * max(1, slots)
    for t in sorted(tasks, reverse=True):
        heapq.heappush(heap, heapq.heappop(heap) + t)
    return max(heap)


def floats(text):
    return [float(x) for x in text.split(",") if x] if text else []


def hms(s):
    if s >= 3600:
        return "%.1f h" % (s / 3600)
    if s >= 60:
        return "%.1f min" % (s / 60)
    return "%.0f s" % s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", required=True)
    ap.add_argument("--cpu-log", action="append", default=[])
    ap.add_argument("--estimate", action="append", default=[])
    ap.add_argument("--bbv", default="")
    ap.add_argument("--capture", default="")
    ap.add_argument("--windows", type=float, default=0)
    ap.add_argument("--final", type=float, default=0)
    ap.add_argument("--scale-bbv", type=float, default=1)
    ap.add_argument("--scale-capture", type=float, default=1)
    ap.add_argument("--scale-run", type=float, default=1)
    ap.add_argument("--nodes", default="1,10,100")
    ap.add_argument("--cores", type=int, default=2)
    a = ap.parse_args()

    cpu = {}
    for log in a.cpu_log:
        with open(log) as f:
            for line in f:
                p = line.split()
                if len(p) == 7 and p[1] == "wall":
                    w, u, s = float(p[2]), float(p[4]), float(p[6])
                    cpu[p[0]] = (u + s) / w if w > 0 else 1
    runs = []
    per_config = {}
    for path in sorted(glob.glob(os.path.join(a.runs, "*", "*.run.json"))):
        with open(path) as f:
            rec = json.load(f)
        cfg = rec.get("config_path", path)
        factor = cpu.get(cfg, 1.0)
        fed = {}
        side = path[: -len(".run.json")] + ".json"
        if os.path.exists(side):
            with open(side) as f:
                for t in json.load(f).get("traces", []):
                    if t.get("events_fed"):
                        fed[t["path"]] = t["events"] / t["events_fed"]
        jobs = [j["seconds"] * factor * fed.get(j.get("trace"), 1.0) * a.scale_run
                for r in rec["runs"] for j in r["jobs"]]
        per_config[cfg] = jobs
    for e in a.estimate:
        cfg, _, rest = e.partition("=")
        total, _, njobs = rest.partition(":")
        n = int(njobs)
        per_config[cfg] = [float(total) / n * a.scale_run] * n
    for jobs in per_config.values():
        runs += jobs
    if not runs:
        sys.exit("project.py: no *.run.json under %s" % a.runs)
    stages = [
        ("bbv", [x * a.scale_bbv for x in floats(a.bbv)], 1),
        ("capture", [x * a.scale_capture for x in floats(a.capture)], 2),
        ("windows", [a.windows] * len(floats(a.bbv)) if a.windows else [], 1),
        ("run", runs, 1),
        ("final", [a.final] if a.final else [], 1),
    ]
    nodes = [int(n) for n in a.nodes.split(",")]
    print("%-8s %6s %7s %9s" % ("stage", "tasks", "cpu-h", "longest") +
          "".join("  %9s" % ("%d node%s" % (n, "" if n == 1 else "s")) for n in nodes))
    totals = [0.0] * len(nodes)
    critical = 0.0
    for name, tasks, cores in stages:
        if not tasks:
            continue
        row = "%-8s %6d %7.2f %9s" % (name, len(tasks), sum(tasks) * cores / 3600, hms(max(tasks)))
        for i, n in enumerate(nodes):
            t = lpt(tasks, n * a.cores // cores)
            totals[i] += t
            row += "  %9s" % hms(t)
        critical += max(tasks)
        print(row)
    print("%-8s %6s %7.2f %9s" % ("total", "", sum(sum(t) * c for _, t, c in stages) / 3600, hms(critical)) +
          "".join("  %9s" % hms(t) for t in totals))
    med = sorted(runs)[len(runs) // 2]
    print("run tasks: median %s, longest %s" % (hms(med), hms(max(runs))))
    longest = max(per_config.items(), key=lambda kv: sum(kv[1]))
    print("critical path (unlimited nodes): %s; largest config: %s, %s of CPU over %d jobs" %
          (hms(critical), longest[0], hms(sum(longest[1])), len(longest[1])))


if __name__ == "__main__":
    main()
