"""`flowpkg test --watch`: from a save to the first line of its result, ROUNDS times.

Usage: watch_latency.py FLOWPKG PROJECT MODULE ROUNDS. Starts `FLOWPKG test --watch` in PROJECT,
waits for its first run, then rewrites MODULE (a path in PROJECT that exactly one spec file
requires) ROUNDS times, each time timing from the write to the rerun's summary line on stdout.
Prints the median and the 90th percentile in milliseconds, and each round's.
"""
import os
import queue
import statistics
import subprocess
import sys
import threading
import time

flowpkg, project, module, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
path = os.path.join(project, module)
original = open(path, encoding="utf-8").read()
process = subprocess.Popen(
    [flowpkg, "test", "--watch"], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    env=dict(os.environ, NO_COLOR="1"), text=True, bufsize=1)
lines = queue.Queue()


def pump(stream, kind):
    for line in stream:
        lines.put((kind, line, time.perf_counter()))


for stream, kind in ((process.stdout, "out"), (process.stderr, "err")):
    threading.Thread(target=pump, args=(stream, kind), daemon=True).start()


def wait_for(kind, text, timeout=120):
    deadline = time.perf_counter() + timeout
    while True:
        got_kind, line, at = lines.get(timeout=max(0.01, deadline - time.perf_counter()))
        if got_kind == kind and text in line:
            return at


try:
    wait_for("err", "watch: waiting for saves")
    times = []
    for round_number in range(rounds):
        time.sleep(0.3)
        while not lines.empty():
            lines.get()
        started = time.perf_counter()
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(original + f"-- round {round_number}\n")
        ended = wait_for("out", " / 0 failures / ")
        times.append((ended - started) * 1000)
finally:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(original)
    process.terminate()
    process.wait()
times_sorted = sorted(times)
p90 = times_sorted[max(0, int(round(0.9 * len(times_sorted))) - 1)]
print(f"p50 {statistics.median(times):.1f} ms, p90 {p90:.1f} ms over {len(times)} saves")
print("rounds: " + " ".join(f"{t:.1f}" for t in times))
