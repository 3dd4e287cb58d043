"""flowpkg dev's `t` key under a pseudo-terminal: DevTestKeyTests runs this.

Usage: dev_test_key.py FLOWPKG PROJECT. Runs `flowpkg dev PROJECT` on a new pty (the environment,
FLOWPKG_CACHE included, passed on), waits for its program to connect, types t and Enter, and
checks that each spec file's results and the run's summary show in the terminal and in the
session page's state. Prints "ok" and the transcript, or the step that failed, exiting 1.
"""
import json
import sys
import urllib.request

from dev_terminal import DevTerminal

flowpkg, project = sys.argv[1], sys.argv[2]
dev = DevTerminal(flowpkg, project)
fail, wait_for = dev.fail, dev.wait_for


page = wait_for(r"Session page: (http://\S+)", "start").group(1).decode()
connected = wait_for(r": connected from ", "the program connects").end()
dev.type(b"t\n")
file_line = r"test: spec/app_spec\.lua: 1 success / 1 failure / 0 errors / 0 pending"
wait_for(file_line, "t + Enter: the file's results", after=connected)
wait_for(r"test: finished: 1 success / 1 failure / 0 errors / 0 pending", "t + Enter: the summary", after=connected)

state_url = page.replace("/session?", "/v1/session?")
with urllib.request.urlopen(state_url, timeout=10) as answer:
    state = json.loads(answer.read().decode())
lines = [line["text"] for program in state["programs"] for line in program["console"] if line["stream"] == "test"]
if "spec/app_spec.lua: 1 success / 1 failure / 0 errors / 0 pending" not in lines:
    fail("the page's state has no line for the run: " + repr(lines))

if dev.end(timeout=10) is None:
    fail("Ctrl-C: dev did not end")
dev.finish()
