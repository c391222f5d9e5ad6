"""The Python CLI over a recording (not a test), side by side, each a
fresh process timed from spawn to exit (wall and CPU time), interleaved rounds,
medians:

- ``python -m overturn.fingerprint --jobs 1 FILE`` vs a user's own loop
  (``json.loads``, ``fingerprint``; target: the CLI >= 6x faster);
- ``--jobs 2`` vs ``--jobs 1`` (target >= 1.7x on two cores);
- peak RSS (VmHWM) of the CLI at N and 2N lines (constant), --jobs 1 and 2 (its worker thread included).

The recording comes from ``bench/cli-recording.mjs`` (node) in a temporary folder.

    python python/bench/cli.py [--lines 200000] [--rounds 5] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOOP = """import json, sys
from overturn.fingerprint import fingerprint
out = sys.stdout
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        c = json.loads(line)
        out.write(fingerprint(c["name"], c.get("args"), match_on=c.get("matchOn"), ignore_args=c.get("ignoreArgs"))
                  + "  " + c["name"] + "\\n")
"""

# Runs the CLI and writes its peak RSS (VmHWM, KB) to $HWM_OUT at exit (--jobs workers are threads of it),
# and its children's largest (none expected).
HWM = ("import atexit, os, resource, runpy, sys\n"
       "def hwm():\n"
       "    with open('/proc/self/status') as f:\n"
       "        kb = [line.split()[1] for line in f if line.startswith('VmHWM:')][0]\n"
       "    with open(os.environ['HWM_OUT'], 'w') as f:\n"
       "        f.write('%s %d' % (kb, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
       "atexit.register(hwm)\n"
       "sys.argv[0] = 'overturn.fingerprint'\n"
       "runpy.run_module('overturn.fingerprint', run_name='__main__', alter_sys=True)\n")


def timed(cmd, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, env=env)
    return (time.perf_counter() - t0) * 1000


def timed_cpu(cmd) -> "tuple[float, float]":
    """(wall ms, CPU ms): user + system of the child and the workers it waited for.
    On a shared machine CPU time moves less with the load than wall time does."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(cmd)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json")
    a = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("needs node for bench/cli-recording.mjs")
    with tempfile.TemporaryDirectory(prefix="overturn-cli-bench-") as d:
        rec, double = os.path.join(d, "recording.jsonl"), os.path.join(d, "recording-2x.jsonl")
        subprocess.run([node, str(ROOT / "bench/cli-recording.mjs"), rec, str(a.lines)], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([node, str(ROOT / "bench/cli-recording.mjs"), double, str(2 * a.lines)], check=True,
                       stdout=subprocess.DEVNULL)
        size = os.path.getsize(rec)
        print("recording: {:,} lines, {:.1f} MB (bench/cli-recording.mjs)".format(a.lines, size / 1e6))
        cli = [sys.executable, "-m", "overturn.fingerprint"]
        load0 = os.getloadavg()[0]
        rows: "dict[str, list[float]]" = {"loop": [], "jobs1": [], "jobs2": []}
        cpu: "dict[str, list[float]]" = {"loop": [], "jobs1": [], "jobs2": []}
        for _ in range(a.rounds):
            for k, cmd in (("loop", [sys.executable, "-c", LOOP, rec]), ("jobs1", cli + ["--jobs", "1", rec]),
                           ("jobs2", cli + ["--jobs", "2", rec])):
                w, c = timed_cpu(cmd)
                rows[k].append(w)
                cpu[k].append(c)
        load1 = os.getloadavg()[0]
        med = {k: sorted(v)[len(v) // 2] for k, v in rows.items()}
        mcpu = {k: sorted(v)[len(v) // 2] for k, v in cpu.items()}

        def peak(path: str, jobs: int = 1) -> int:
            """The CLI's peak RSS (KB), its worker threads included; any child process's added."""
            out = os.path.join(d, "hwm")
            subprocess.run([sys.executable, "-c", HWM, "--jobs", str(jobs), path], stdout=subprocess.DEVNULL, check=True,
                           env=dict(os.environ, HWM_OUT=out))
            parent, worker = (int(x) for x in Path(out).read_text().split())
            return parent + worker

        peaks = [peak(rec), peak(double)]
        peaks2 = [peak(rec, 2), peak(double, 2)]
        lps = lambda ms: "{:,}".format(round(a.lines / (ms / 1000)))  # noqa: E731
        print("load average (1 min) %.1f before, %.1f after, on %d cores" % (load0, load1, os.cpu_count() or 1))
        print("\n| | median wall ms | lines/s | median CPU ms |\n|---|---:|---:|---:|")
        for k, label in (("loop", "a user's loop (json.loads, fingerprint)"),
                         ("jobs1", "python -m overturn.fingerprint --jobs 1"),
                         ("jobs2", "python -m overturn.fingerprint --jobs 2")):
            print("| %s | %.0f | %s | %.0f |" % (label, med[k], lps(med[k]), mcpu[k]))
        vs_loop, vs_one = med["loop"] / med["jobs1"], med["jobs1"] / med["jobs2"]
        print("\nCLI --jobs 1 vs the loop: %.2fx wall (target 6x) %s, %.2fx CPU"
              % (vs_loop, "PASS" if vs_loop >= 6 else "MISS", mcpu["loop"] / mcpu["jobs1"]))
        print("--jobs 2 vs --jobs 1:     %.2fx wall (target 1.7x) %s" % (vs_one, "PASS" if vs_one >= 1.7 else "MISS"))
        for jobs, pk in ((1, peaks), (2, peaks2)):
            print("peak RSS --jobs %d: %.1f MB at {:,} lines, %.1f MB at {:,} (%+.1f MB)".format(a.lines, 2 * a.lines)
                  % (jobs, pk[0] / 1024, pk[1] / 1024, (pk[1] - pk[0]) / 1024))
        if a.json:
            Path(a.json).write_text(json.dumps({"lines": a.lines, "bytes": size, "load": [load0, load1], "rows": rows,
                                                "median": med, "cpuMs": cpu, "medianCpu": mcpu,
                                                "peakRssKB": peaks, "peakRssKBJobs2": peaks2}, indent=2) + "\n")


if __name__ == "__main__":
    main()
