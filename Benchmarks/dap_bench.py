"""flowpkg dap's cost and latencies, printed as Benchmarks/run rows: group|label|seconds|reference|.

python3 dap_bench.py FLOWPKG WORKDIR ROUNDS"""

import os
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "Tests", "FlowCLITests", "DapClient"))
from dap_client import DapClient, start, stopped  # noqa: E402

# Each program times its own loop (os.clock: the process's CPU time), which is what the hooks
# cost; the launch (the adapter, the program's connection back) is timed apart, as wall time.
LOOP = """local function never()
  return 0
end
local clock = os.clock
local start = clock()
local s = 0
for i = 1, 50000000 do s = s + i % 7 end
io.stderr:write(string.format("loop %.6f\\n", clock() - start))
print(s)
"""

CALLS = """local function never()
  return 0
end
local function step(x) return x + 1 end
local clock = os.clock
local start = clock()
local s = 0
for i = 1, 10000000 do s = step(s) end
io.stderr:write(string.format("loop %.6f\\n", clock() - start))
print(s)
"""

HITS = """local function hit(x)
  return x + 1
end
local s = 0
while true do
  s = hit(s)
end
"""

SPIN = """local n = 0
while true do n = n + 1 end
"""


def project(work, name, main):
    root = os.path.join(work, name)
    os.makedirs(os.path.join(root, "Sources"), exist_ok=True)
    with open(os.path.join(root, "flowpkg.json"), "w") as f:
        f.write('{"name": "%s", "identifier": "com.example.%s", "version": "1.0.0", "startModule": "Main"}'
                % (name, name.lower()))
    with open(os.path.join(root, "Sources", "Main.lua"), "w") as f:
        f.write(main)
    return root


def loop_time(stderr):
    return float(next(line for line in stderr.splitlines() if line.startswith("loop ")).split()[1])


def plain(flowpkg, root):
    """The run's wall time and its loop's CPU time."""
    begin = time.perf_counter()
    done = subprocess.run([flowpkg, "run", root], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    return time.perf_counter() - begin, loop_time(done.stderr)


def debugged(flowpkg, root, work, breakpoint_line=None):
    """Launched under flowpkg dap: the wall time to `exited`, and the loop's CPU time."""
    main = os.path.join(root, "Sources", "Main.lua")
    begin = time.perf_counter()
    client = start(flowpkg, root, work, {main: [breakpoint_line]} if breakpoint_line else {}, exceptions=())
    client.wait_event("exited", timeout=600)
    elapsed = time.perf_counter() - begin
    client.request("disconnect", {})
    client.close()
    return elapsed, loop_time(client.output("stderr"))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    flowpkg, work, rounds = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), int(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rows = []
    for group, name, text in (("dap loop-bound", "Loop", LOOP), ("dap call-bound", "Calls", CALLS)):
        root = project(work, name, text)
        wall = {"plain": 1e9, "none": 1e9, "never": 1e9}
        loop = dict(wall)
        for _ in range(rounds):
            for key, measure in (("plain", lambda: plain(flowpkg, root)),
                                 ("none", lambda: debugged(flowpkg, root, work)),
                                 ("never", lambda: debugged(flowpkg, root, work, breakpoint_line=2))):
                elapsed, cpu = measure()
                wall[key], loop[key] = min(wall[key], elapsed), min(loop[key], cpu)
        rows.append("%s|flowpkg run: the loop (CPU)|%.4f||" % (group, loop["plain"]))
        rows.append("%s|flowpkg dap, attached, no breakpoint: the loop (CPU)|%.4f|flowpkg run: the loop (CPU)|"
                    % (group, loop["none"]))
        rows.append("%s|flowpkg dap, breakpoint in a function never called: the loop (CPU)|%.4f|"
                    "flowpkg run: the loop (CPU)|" % (group, loop["never"]))
        rows.append("%s|flowpkg run (wall, whole run)|%.4f||" % (group, wall["plain"]))
        rows.append("%s|flowpkg dap launch to exited (wall, adapter and connection included)|%.4f|"
                    "flowpkg run (wall, whole run)|" % (group, wall["none"]))

    root = project(work, "Hits", HITS)
    main_file = os.path.join(root, "Sources", "Main.lua")
    client = start(flowpkg, root, work, {main_file: [2]}, exceptions=())
    event, after = stopped(client)
    hits, steps = [], []
    for _ in range(100):
        begin = time.perf_counter()
        client.request("continue", {"threadId": 1})
        event, after = stopped(client, after)
        hits.append(time.perf_counter() - begin)
    for _ in range(100):
        begin = time.perf_counter()
        client.request("next", {"threadId": 1})
        event, after = stopped(client, after)
        steps.append(time.perf_counter() - begin)
    client.request("disconnect", {})
    client.close()

    root = project(work, "Spin", SPIN)
    client = start(flowpkg, root, work, {}, exceptions=())
    pauses = []
    after = 0
    for _ in range(20):
        begin = time.perf_counter()
        client.request("pause", {"threadId": 1})
        event, after = stopped(client, after, reason="pause")
        pauses.append(time.perf_counter() - begin)
        client.request("continue", {"threadId": 1})
    client.request("disconnect", {})
    client.close()
    rows.append("dap latency|continue → breakpoint hit → stopped, p95|%.4f||" % percentile(hits, 0.95))
    rows.append("dap latency|step → stopped, p95|%.4f||" % percentile(steps, 0.95))
    rows.append("dap latency|pause in a tight loop → stopped, max of 20|%.4f||" % max(pauses))
    print("\n".join(rows))


if __name__ == "__main__":
    main()
