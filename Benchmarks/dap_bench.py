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

LOOP = """local function never()
  return 0
end
local s = 0
for i = 1, 20000000 do s = s + i % 7 end
print(s)
"""

CALLS = """local function never()
  return 0
end
local function step(x) return x + 1 end
local s = 0
for i = 1, 3000000 do s = step(s) end
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


def plain(flowpkg, root):
    begin = time.perf_counter()
    subprocess.run([flowpkg, "run", root], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - begin


def debugged(flowpkg, root, work, breakpoint_line=None):
    main = os.path.join(root, "Sources", "Main.lua")
    begin = time.perf_counter()
    client = start(flowpkg, root, work, {main: [breakpoint_line]} if breakpoint_line else {}, exceptions=())
    client.wait_event("exited", timeout=600)
    elapsed = time.perf_counter() - begin
    client.request("disconnect", {})
    client.close()
    return elapsed


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
        best = {"plain": 1e9, "none": 1e9, "never": 1e9}
        for _ in range(rounds):
            best["plain"] = min(best["plain"], plain(flowpkg, root))
            best["none"] = min(best["none"], debugged(flowpkg, root, work))
            best["never"] = min(best["never"], debugged(flowpkg, root, work, breakpoint_line=2))
        rows.append("%s|flowpkg run|%.4f||" % (group, best["plain"]))
        rows.append("%s|flowpkg dap launch, no breakpoint|%.4f|flowpkg run|" % (group, best["none"]))
        rows.append("%s|flowpkg dap launch, breakpoint in a function never called|%.4f|flowpkg run|"
                    % (group, best["never"]))

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
