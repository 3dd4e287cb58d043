#!/usr/bin/env python3
"""Save-to-first-line latency of `flowpkg dev` on the console-app template.

Makes a project with `flowpkg new --template console-app`, runs `flowpkg dev` on it, then saves
its start module N times, each time with a new title for the frame it prints, and times each
save until dev's output shows the first line of the new frame (the program re-ran). Prints
`p50 p90 p99 max` in seconds on one line.
"""
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

flowpkg, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100
work = tempfile.mkdtemp(prefix="flowpkg-dev-bench-")
subprocess.run([flowpkg, "new", "Hello", "--template", "console-app"], cwd=work, check=True,
               stdout=subprocess.DEVNULL)
main = os.path.join(work, "Hello", "Sources", "Main.lua")
original = open(main).read()
dev = subprocess.Popen([flowpkg, "dev", "Hello"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, bufsize=0)
buffer = b""


def wait_for(text, timeout=5.0):
    """Reads dev's output until `text` appears after what was read before; returns when it arrived."""
    global buffer
    deadline = time.monotonic() + timeout
    while True:
        at = buffer.find(text.encode())
        if at >= 0:
            buffer = buffer[at + len(text):]
            return time.monotonic()
        left = deadline - time.monotonic()
        ready, _, _ = select.select([dev.stdout], [], [], max(0.0, left))
        if not ready:
            raise SystemExit(f"timed out waiting for {text!r}")
        chunk = os.read(dev.stdout.fileno(), 65536)
        if not chunk:
            raise SystemExit(f"dev ended while waiting for {text!r}")
        buffer += chunk


samples = []
try:
    wait_for("+- Hello ")
    time.sleep(0.3)
    for n in range(1, rounds + 1):
        with open(main + ".tmp", "w") as f:
            f.write(original.replace('Banner.frame("Hello"', f'Banner.frame("Hello {n}"'))
        os.replace(main + ".tmp", main)
        saved = time.monotonic()
        samples.append(wait_for(f"+- Hello {n} ") - saved)
        time.sleep(0.05)
finally:
    dev.send_signal(signal.SIGINT)
    dev.wait()

samples.sort()
pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]
print(f"{pick(0.5):.4f} {pick(0.9):.4f} {pick(0.99):.4f} {samples[-1]:.4f}")
