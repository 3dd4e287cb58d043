#!/usr/bin/env python3
"""Save-to-reload latency of live development, measured end to end on loopback.

Starts `flowpkg serve` on a small project and `flowpkg run --live --watch` on its package, then
rewrites one module N times and times each save until the running program prints that the new
code ran. Prints `p50 p90 p99 max` in seconds on one line.
"""
import json
import os
import select
import subprocess
import sys
import threading
import tempfile
import time

flowpkg, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100
work = tempfile.mkdtemp(prefix="flowpkg-live-bench-")
project = os.path.join(work, "Live")
os.makedirs(os.path.join(project, "Sources"))
with open(os.path.join(project, "flowpkg.json"), "w") as f:
    json.dump({"name": "Live", "identifier": "com.example.livebench", "version": "1.0.0", "startModule": "main"}, f)
with open(os.path.join(project, "Sources", "main.lua"), "w") as f:
    f.write('require "ticker"\n'
            'addMessageHandler("system.did_load_module", function(name)\n'
            '  if name == "ticker" then print("ran " .. require("ticker").n) end\n'
            'end)\nprint("ready")\n')
ticker = os.path.join(project, "Sources", "ticker.lua")
with open(ticker, "w") as f:
    f.write("return { n = 0 }\n")
package = os.path.join(work, "Live.luapkg")
subprocess.run([flowpkg, "export", project, "-o", package], check=True, stdout=subprocess.DEVNULL)

token = "benchmark-token"
server = subprocess.Popen([flowpkg, "serve", project, "--port", "0", "--token", token],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
url = None
while url is None:
    line = server.stdout.readline()
    if not line:
        sys.exit("flowpkg serve did not start")
    if line.startswith("Serving "):
        url = line.rsplit(" at ", 1)[1].strip()
# serve prints a line per request and per event the program sends back: keep reading it, or
# its stdout pipe fills and serve waits on it (as it would behind a paused pager).
threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
runner = subprocess.Popen([flowpkg, "run", package, "--live", url, "--token", token, "--watch"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)


def wait_for(text, timeout=5.0):
    """Reads the runner's output until `text` appears; returns the time it arrived."""
    deadline = time.monotonic() + timeout
    buffer = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([runner.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(runner.stdout.fileno(), 65536)
        if not chunk:
            break
        buffer += chunk
        if text.encode() in buffer:
            return time.monotonic()
    raise SystemExit(f"timed out waiting for {text!r}")


samples = []
try:
    wait_for("ready")
    time.sleep(0.3)
    for n in range(1, rounds + 1):
        with open(ticker, "w") as f:
            f.write(f"return {{ n = {n} }}\n")
        saved = time.monotonic()
        samples.append(wait_for(f"ran {n}\n") - saved)
        time.sleep(0.05)
finally:
    runner.terminate()
    server.terminate()
    runner.wait()
    server.wait()

samples.sort()
pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]
print(f"{pick(0.5):.4f} {pick(0.9):.4f} {pick(0.99):.4f} {samples[-1]:.4f}")
