"""flowpkg dev's `t` key under a pseudo-terminal: DevTestKeyTests runs this.

Usage: dev_test_key.py FLOWPKG PROJECT. Runs `flowpkg dev PROJECT` on a new pty (the environment,
FLOWPKG_CACHE included, passed on), waits for its program to connect, types t and Enter, and
checks that each spec file's results and the run's summary show in the terminal and in the
session page's state. Prints "ok" and the transcript, or the step that failed, exiting 1.
"""
import json
import os
import pty
import re
import select
import sys
import time
import urllib.request

flowpkg, project = sys.argv[1], sys.argv[2]
transcript = b""

pid, fd = pty.fork()
if pid == 0:
    os.environ["NO_COLOR"] = "1"
    os.execv(flowpkg, [flowpkg, "dev", project])


def fail(step):
    sys.stdout.write("FAIL: " + step + "\n--- transcript\n" + transcript.decode("utf-8", "replace") + "\n")
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    sys.exit(1)


def wait_for(pattern, step, after=0, timeout=30):
    """Reads the terminal until `pattern` (a regex) shows after offset `after`; returns the match."""
    global transcript
    deadline = time.monotonic() + timeout
    while True:
        match = re.search(pattern.encode(), transcript[after:])
        if match:
            return match
        left = deadline - time.monotonic()
        if left <= 0:
            fail(step + ": no " + repr(pattern))
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                fail(step + ": the terminal closed")
            if not chunk:
                fail(step + ": the terminal closed")
            transcript += chunk


page = wait_for(r"Session page: (http://\S+)", "start").group(1).decode()
connected = wait_for(r": connected from ", "the program connects").end()
os.write(fd, b"t\n")
file_line = r"test: spec/app_spec\.lua: 1 success / 1 failure / 0 errors / 0 pending"
wait_for(file_line, "t + Enter: the file's results", after=connected)
wait_for(r"test: finished: 1 success / 1 failure / 0 errors / 0 pending", "t + Enter: the summary", after=connected)

state_url = page.replace("/session?", "/v1/session?")
with urllib.request.urlopen(state_url, timeout=10) as answer:
    state = json.loads(answer.read().decode())
lines = [line["text"] for program in state["programs"] for line in program["console"] if line["stream"] == "test"]
if "spec/app_spec.lua: 1 success / 1 failure / 0 errors / 0 pending" not in lines:
    fail("the page's state has no line for the run: " + repr(lines))

os.write(fd, b"\x03")
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    try:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            transcript += os.read(fd, 65536)
    except OSError:
        pass
else:
    fail("Ctrl-C: dev did not end")
sys.stdout.write("ok\n" + transcript.decode("utf-8", "replace"))
