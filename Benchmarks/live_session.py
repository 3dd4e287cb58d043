#!/usr/bin/env python3
"""The live session's way back, measured end to end on loopback.

1. print-to-serve latency: `flowpkg run --live --watch` prints a line on every save; the time
   from the line appearing on the program's stdout to the same line printed by `flowpkg serve`.
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


def serve(root):
    server = subprocess.Popen([flowpkg, "serve", root, "--port", "0", "--token", token],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    buffer = b""
    while b"Session page:" not in buffer:
        chunk = os.read(server.stdout.fileno(), 65536)
        if not chunk:
            sys.exit("flowpkg serve did not start")
        buffer += chunk
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
server, url = serve(latency_root)
runner = subprocess.Popen([flowpkg, "run", latency_root, "--live", url, "--token", token, "--watch"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
seen = {}  # (stream name, text) -> first time seen
buffers = {runner.stdout.fileno(): b"", server.stdout.fileno(): b""}
names = {runner.stdout.fileno(): "run", server.stdout.fileno(): "serve"}


def pump_until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        left = deadline - time.monotonic()
        if left <= 0:
            raise SystemExit("timed out")
        ready, _, _ = select.select(list(buffers), [], [], left)
        now = time.monotonic()
        for fd in ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                raise SystemExit(names[fd] + " ended")
            buffers[fd] += chunk
            *lines, buffers[fd] = buffers[fd].split(b"\n")
            for line in lines:
                text = line.decode(errors="replace")
                if names[fd] == "serve" and "]: " in text:
                    text = text.split("]: ", 1)[1]
                seen.setdefault((names[fd], text), now)


samples = []
try:
    pump_until(lambda: ("serve", "ready") in seen)
    time.sleep(0.3)
    for n in range(1, rounds + 1):
        with open(ticker, "w") as f:
            f.write(f"return {{ n = {n} }}\n")
        key = f"tick {n}"
        pump_until(lambda: ("run", key) in seen and ("serve", key) in seen)
        samples.append(seen[("serve", key)] - seen[("run", key)])
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


# Calibrate WORK so that the program alone prints about 10,000 lines a second.
main = os.path.join(paced_root, "Sources", "main.lua")
template = open(main).read()
work_per_line = 200
for _ in range(6):
    with open(main, "w") as f:
        f.write(template.replace("WORK", str(work_per_line)))
    wall, _ = timed(paced_root, None)
    rate = lines / wall
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
      f"{best['tight_base'][0]:.4f} {best['tight_live'][0]:.4f} {lines / best['base'][0]:.0f}")
