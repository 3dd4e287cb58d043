#!/usr/bin/env python3
"""The live session's way back, measured end to end on loopback.

1. print-to-serve latency: `flowpkg run --live --watch` prints a line on every save; the time
   from the program's print (the event's own time, taken when Lua called print) to the moment
   `flowpkg serve --format json` has printed that line (read here from its stdout).
2. the cost of a live session to a program printing about 10,000 lines a second: the same
   program (each line followed by a fixed amount of Lua work) run without and with `--live`,
   wall and CPU time, best of R runs each, interleaved.

Prints `p50 p90 p99 max base_wall live_wall base_cpu live_cpu tight_base tight_live` on one line.
"""
import json
import os
import resource
import select
import subprocess
import sys
import tempfile
import time

flowpkg = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 100
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
work = tempfile.mkdtemp(prefix="flowpkg-session-bench-")


def project(name, modules):
    root = os.path.join(work, name)
    os.makedirs(os.path.join(root, "Sources"))
    with open(os.path.join(root, "flowpkg.json"), "w") as f:
        json.dump({"name": name, "identifier": "com.example." + name.lower(), "version": "1.0.0",
                   "startModule": "main"}, f)
    for module, code in modules.items():
        with open(os.path.join(root, "Sources", module + ".lua"), "w") as f:
            f.write(code)
    return root


token = "benchmark-token"


def serve(root, fmt="text"):
    server = subprocess.Popen([flowpkg, "serve", root, "--port", "0", "--token", token, "--format", fmt],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    buffer = b""
    while b"Session page:" not in buffer and b'"kind":"serving"' not in buffer:
        chunk = os.read(server.stdout.fileno(), 65536)
        if not chunk:
            sys.exit("flowpkg serve did not start")
        buffer += chunk
    if fmt == "json":
        first = buffer.split(b"\n", 1)[0]
        return server, json.loads(first)["url"]
    url = buffer.split(b"Serving ", 1)[1].split(b"\n", 1)[0].rsplit(b" at ", 1)[1].decode().strip()
    return server, url


# 1. Latency.
latency_root = project("Latency", {
    "main": 'require "ticker"\n'
            'addMessageHandler("system.did_load_module", function(name)\n'
            '  if name == "ticker" then print("tick " .. require("ticker").n) end\n'
            'end)\nprint("ready")\n',
    "ticker": "return { n = 0 }\n",
})
ticker = os.path.join(latency_root, "Sources", "ticker.lua")
server, url = serve(latency_root, "json")
runner = subprocess.Popen([flowpkg, "run", latency_root, "--live", url, "--token", token, "--watch"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
shown = {}  # text printed by the program -> latency from its print to serve's line
pending = b""


def pump_until(condition, timeout=5.0):
    global pending
    deadline = time.monotonic() + timeout
    while not condition():
        left = deadline - time.monotonic()
        if left <= 0:
            raise SystemExit("timed out")
        ready, _, _ = select.select([server.stdout], [], [], left)
        if not ready:
            continue
        chunk = os.read(server.stdout.fileno(), 65536)
        arrived = time.time()
        if not chunk:
            raise SystemExit("flowpkg serve ended")
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            event = json.loads(line)
            if event.get("kind") == "output":
                shown.setdefault(event["text"], arrived - event["time"])


samples = []
try:
    pump_until(lambda: "ready" in shown)
    time.sleep(0.3)
    for n in range(1, rounds + 1):
        with open(ticker, "w") as f:
            f.write(f"return {{ n = {n} }}\n")
        key = f"tick {n}"
        pump_until(lambda: key in shown)
        samples.append(shown[key])
        time.sleep(0.05)
finally:
    runner.terminate()
    runner.wait()
    server.terminate()
    server.wait()
samples.sort()
pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]

# 2. Cost at about 10,000 lines a second, and in a tight loop.
lines = 20000
paced_root = project("Paced", {"main": f"""
local x = 0
for i = 1, {lines} do
  for j = 1, WORK do x = x + j end
  print("line " .. i .. " of the paced program")
end
"""})
tight_root = project("Tight", {"main": 'for i = 1, 100000 do print("line " .. i) end\n'})


def timed(root, live_url):
    command = [flowpkg, "run", root]
    if live_url:
        command += ["--live", live_url, "--token", token]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# Calibrate WORK so that the program alone prints about 10,000 lines per CPU second (CPU time:
# the machine may be shared, and wall time then says more about the neighbours).
main = os.path.join(paced_root, "Sources", "main.lua")
template = open(main).read()
work_per_line = 200
for _ in range(6):
    with open(main, "w") as f:
        f.write(template.replace("WORK", str(work_per_line)))
    _, cpu = min((timed(paced_root, None) for _ in range(2)), key=lambda r: r[1])
    rate = lines / cpu
    work_per_line = max(1, int(work_per_line * rate / 10000))
with open(main, "w") as f:
    f.write(template.replace("WORK", str(work_per_line)))

results = {"base": [], "live": [], "tight_base": [], "tight_live": []}
servers = []
try:
    paced_server, paced_url = serve(paced_root)
    tight_server, tight_url = serve(tight_root)
    servers = [paced_server, tight_server]
    # serve's own printing is not what is measured: its output is read and thrown away.
    for s in servers:
        subprocess.Popen(["cat"], stdin=s.stdout, stdout=subprocess.DEVNULL)
    for _ in range(repeats):
        results["base"].append(timed(paced_root, None))
        results["live"].append(timed(paced_root, paced_url))
        results["tight_base"].append(timed(tight_root, None))
        results["tight_live"].append(timed(tight_root, tight_url))
finally:
    for s in servers:
        s.terminate()
        s.wait()

best = {k: (min(w for w, _ in v), min(c for _, c in v)) for k, v in results.items()}
print(f"{pick(0.5):.4f} {pick(0.9):.4f} {pick(0.99):.4f} {samples[-1]:.4f} "
      f"{best['base'][0]:.4f} {best['live'][0]:.4f} {best['base'][1]:.4f} {best['live'][1]:.4f} "
      f"{best['tight_base'][0]:.4f} {best['tight_live'][0]:.4f} {lines / best['base'][1]:.0f}")
