"""flowpkg dap's end-to-end scenarios, each run by DapCommandTests as
`python3 scenarios.py NAME FLOWPKG WORKDIR`: exit 0 when it held, else the failure on stderr."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import (  # noqa: E402
    DapClient, DapError, end_all, expect, process_gone, scope, start, stopped, top_frame, variables_of, wait_gone)

MAIN = """local util = require "app.util"
local counter = 0
local function bump(n)
  counter = counter + n
  return counter
end
local total = bump(2)
local doubled = util.double(total)
print("doubled", doubled)
os.exit(3)
"""

UTIL = """local M = {}
function M.double(x)
  local result = x * 2
  return result
end
return M
"""


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
    return full


def make_project(work, main=MAIN, util=UTIL):
    root = os.path.join(work, "Demo")
    write(root, "flowpkg.json", '{"name": "Demo", "identifier": "com.example.demo", "version": "1.0.0", "startModule": "Main"}')
    write(root, "Sources/Main.lua", main)
    write(root, "Sources/app/util.lua", util)
    return root


def launch_walk(flowpkg, work, program, root):
    main = os.path.join(root, "Sources/Main.lua")
    util = os.path.join(root, "Sources/app/util.lua")
    client = start(flowpkg, program, work, {main: [5]})
    event, after = stopped(client, reason="breakpoint")
    frames = top_frame(client)
    expect(frames[0]["name"] == "bump" and frames[0]["line"] == 5, "stopped in bump at line 5: %r" % frames[0])
    expect(frames[1]["name"] == "main chunk" and frames[1]["line"] == 7, "called from line 7: %r" % frames[1])
    source = frames[0]["source"]
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(locals_["n"]["value"] == "2", "local n is 2: %r" % locals_)
    upvalues, _ = scope(client, frames[0]["id"], "Upvalues")
    expect(upvalues["counter"]["value"] == "2", "upvalue counter is 2: %r" % upvalues)
    result = client.request("evaluate", {"expression": "counter + n * 10", "frameId": frames[0]["id"], "context": "watch"})
    expect(result["body"]["result"] == "22", "evaluate in the frame: %r" % result["body"])
    client.request("next", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    frames = top_frame(client)
    expect(frames[0]["line"] == 8 and frames[0]["name"] == "main chunk", "next went to line 8: %r" % frames[0])
    client.request("stepIn", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    frames = top_frame(client)
    expect(frames[0]["line"] == 3, "stepped in to util.double: %r" % frames[0])
    expect(frames[0]["name"].endswith("double"), "in double: %r" % frames[0])
    util_source = frames[0]["source"]
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(locals_["x"]["value"] == "2", "x is 2 in double: %r" % locals_)
    client.request("stepOut", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    frames = top_frame(client)
    expect(frames[0]["name"] == "main chunk" and frames[0]["line"] in (8, 9), "stepped out: %r" % frames[0])
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    client.wait_event("terminated")
    expect(exited["body"]["exitCode"] == 3, "exit code 3: %r" % exited["body"])
    expect("doubled\t4" in client.output("stdout"), "the program's output: %r" % client.output())
    pid = client.launched_pid()
    client.request("disconnect", {})
    client.close()
    expect(process_gone(pid), "the program %d outlived the adapter" % pid)
    return source, util_source


def scenario_launch_project(flowpkg, work):
    root = make_project(work)
    source, util_source = launch_walk(flowpkg, work, root, root)
    expect(source.get("path") == os.path.join(root, "Sources/Main.lua"), "the frame's source is the file: %r" % source)
    expect(util_source.get("path") == os.path.join(root, "Sources/app/util.lua"), "util's file: %r" % util_source)


def scenario_launch_package(flowpkg, work):
    import subprocess

    root = make_project(work)
    package = os.path.join(work, "Demo.luapkg")
    subprocess.run([flowpkg, "export", root, "-o", package], check=True, capture_output=True)
    source, util_source = launch_walk(flowpkg, work, package, root)
    expect(source.get("sourceReference", 0) > 0, "a packaged module comes by reference: %r" % source)
    client = start(flowpkg, package, work, {}, stop_on_entry=True)
    stopped(client, reason="entry")
    frames = top_frame(client)
    reference = frames[0]["source"]["sourceReference"]
    content = client.request("source", {"source": frames[0]["source"], "sourceReference": reference})["body"]["content"]
    expect(content == MAIN, "the packaged module's text: %r" % content)
    client.request("disconnect", {})
    client.close()
    # The file changed since the export: its breakpoint stays unverified, saying why.
    main = write(root, "Sources/Main.lua", "-- edited\n" + MAIN)
    client = start(flowpkg, package, work, {main: [6]}, stop_on_entry=True)
    changed, _ = client.wait_event("breakpoint", lambda e: "differs" in (e["body"]["breakpoint"].get("message") or ""))
    expect(not changed["body"]["breakpoint"]["verified"], "unverified: %r" % changed["body"])
    client.request("disconnect", {})
    client.close()


KINDS = """-- breakpoint kinds
local sum = 0
for i = 1, 10 do
  sum = sum + i
end
for j = 1, 10 do
  sum = sum - j
end
for k = 1, 3 do
  sum = sum + 0
end
print("sum", sum)
"""


def scenario_breakpoint_kinds(flowpkg, work):
    root = make_project(work, main=KINDS)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(
        flowpkg, root, work,
        {main: [1, {"line": 4, "condition": "i == 4"}, {"line": 7, "hitCondition": "3"},
                {"line": 10, "logMessage": "k is {k}"}]},
    )
    # Line 1 is a comment: the breakpoint moves to line 2 once the module loads.
    moved, _ = client.wait_event("breakpoint", lambda e: e["body"]["breakpoint"]["line"] == 2)
    expect(moved["body"]["breakpoint"]["verified"], "the moved breakpoint is verified: %r" % moved["body"])
    event, after = stopped(client, reason="breakpoint")
    expect(top_frame(client)[0]["line"] == 2, "stopped at line 2, where code starts")
    client.request("continue", {"threadId": 1})
    event, after = stopped(client, after, reason="breakpoint")
    frames = top_frame(client)
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(frames[0]["line"] == 4 and locals_["i"]["value"] == "4", "the condition i == 4 held: %r" % locals_)
    client.request("continue", {"threadId": 1})
    event, after = stopped(client, after, reason="breakpoint")
    frames = top_frame(client)
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(frames[0]["line"] == 7 and locals_["j"]["value"] == "3", "the third hit of line 7: %r" % locals_)
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    expect(exited["body"]["exitCode"] == 0, "exit 0")
    expect("k is 1\nk is 2\nk is 3\n" in client.output("console"), "log points wrote: %r" % client.output())
    expect(not any(e.get("event") == "stopped" for e in client.events[after:]), "a log point never stops")
    client.close()


ERRORS = """local ok = pcall(function() error("caught one") end)
local t = nil
print(t.field)
"""


def scenario_exception(flowpkg, work):
    root = make_project(work, main=ERRORS)
    client = start(flowpkg, root, work, {}, exceptions=("uncaught",))
    event, after = stopped(client, reason="exception")
    expect("attempt to index a nil value" in event["body"]["text"], "the error's text: %r" % event["body"])
    frames = top_frame(client)
    expect(frames[0]["line"] == 3, "stopped where the error was raised: %r" % frames[0])
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(locals_["ok"]["value"] == "false", "the caught error left ok false: %r" % locals_)
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    expect(exited["body"]["exitCode"] == 1, "an uncaught error exits 1")
    expect("attempt to index a nil value" in client.output("stderr"), "run's message: %r" % client.output())
    client.close()
    client = start(flowpkg, root, work, {}, exceptions=("raised",))
    event, after = stopped(client, reason="exception")
    expect("caught one" in event["body"]["text"], "raised stops on a caught error: %r" % event["body"])
    expect(top_frame(client)[0]["line"] == 1, "where error() was called")
    client.request("continue", {"threadId": 1})
    event, after = stopped(client, after, reason="exception")
    expect("attempt to index" in event["body"]["text"], "then on the uncaught one")
    client.request("disconnect", {})
    client.close()


SPIN = """counter = 0
io.stderr:write("spinning\\n")
while true do counter = counter + 1 end
"""


def scenario_pause_and_repl(flowpkg, work):
    root = make_project(work, main=SPIN)
    client = start(flowpkg, root, work, {})
    # Before the start module runs, a REPL error is the answer, never an exception stop.
    early = client.request("evaluate", {"expression": "error('no')", "context": "repl"}, success=False)
    expect("no" in early["message"], "an evaluation's error: %r" % early)
    client.wait_event("output", lambda e: "spinning" in e["body"]["output"])
    # REPL while running: evaluated at the program's next safe point.
    result = client.request("evaluate", {"expression": "counter >= 0", "context": "repl"})
    expect(result["body"]["result"] == "true", "REPL evaluate while running: %r" % result["body"])
    client.request("pause", {"threadId": 1})
    event, after = stopped(client, reason="pause")
    expect(not any(e.get("event") == "stopped" for e in client.events[:after - 1]), "no stop before the pause")
    frames = top_frame(client)
    expect(frames[0]["line"] == 3, "paused in the loop: %r" % frames[0])
    before = client.request("evaluate", {"expression": "counter", "frameId": frames[0]["id"]})["body"]["result"]
    expect(int(before) > 0, "the loop ran: %r" % before)
    client.request("setVariable", {"variablesReference": scope(client, frames[0]["id"], "Globals")[1],
                                   "name": "counter", "value": "-100"})
    after_set = client.request("evaluate", {"expression": "counter", "frameId": frames[0]["id"]})["body"]["result"]
    expect(after_set == "-100", "setVariable on a global: %r" % after_set)
    pid = client.launched_pid()
    client.request("disconnect", {"terminateDebuggee": True})
    client.close()
    # The adapter ended the program it launched before it ended itself.
    expect(process_gone(pid), "the launched program %d outlived the adapter" % pid)


def scenario_adapter_killed(flowpkg, work):
    import signal

    root = make_project(work, main=SPIN)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {main: [2]})
    stopped(client, reason="breakpoint")
    pid = client.launched_pid()
    expect(not process_gone(pid), "the program runs while stopped")
    # The editor's adapter is killed mid-stop: its program must not run on, orphaned.
    client.process.send_signal(signal.SIGKILL)
    client.process.wait()
    wait_gone(pid)


COROUTINES = """local co = coroutine.wrap(function()
  local step = 0
  while true do
    step = step + 1
    coroutine.yield(step)
  end
end)
co()
go = false
io.stderr:write("waiting\\n")
while not go do end
print("resumed", co())
"""


def scenario_coroutine(flowpkg, work):
    root = make_project(work, main=COROUTINES)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {})
    client.wait_event("output", lambda e: "waiting" in e["body"]["output"])
    # The coroutine exists and is suspended: a breakpoint set now still hits in it.
    response = client.request("setBreakpoints", {"source": {"path": main}, "breakpoints": [{"line": 4}]})
    expect(response["body"]["breakpoints"][0]["verified"], "verified in a loaded module: %r" % response["body"])
    client.request("evaluate", {"expression": "go = true", "context": "repl"})
    event, after = stopped(client, reason="breakpoint")
    frames = top_frame(client)
    expect(frames[0]["line"] == 4, "stopped in the coroutine: %r" % frames[0])
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(locals_["step"]["value"] == "1", "its local: %r" % locals_)
    client.request("setBreakpoints", {"source": {"path": main}, "breakpoints": []})
    client.request("continue", {"threadId": 1})
    client.wait_event("exited")
    expect("resumed\t2" in client.output("stdout"), "the program went on: %r" % client.output())
    client.close()


EXIT_MID_STEP = """print("one")
os.exit(0)
"""


def scenario_bad_input(flowpkg, work):
    root = make_project(work, main=EXIT_MID_STEP)
    outside = write(work, "outside.lua", "return 1\n")
    client = DapClient([flowpkg, "dap"], cwd=work)
    # Not JSON: no real client sends that, so it goes to stdin by hand; the error answers
    # request 0, which debugpy's channel would drop, so it is read off the stream.
    client.send_raw("{not json")
    response = client.read_reply()
    expect(response["request_seq"] == 0, "the error answers request 0: %r" % response)
    expect(not response["success"] and "malformed" in response["message"], "malformed: %r" % response)
    response = client.request("launch", {"program": os.path.join(work, "nothing-here")}, success=False)
    expect("not a project folder" in response["message"], "a launch of nothing: %r" % response)
    client.request("initialize", {"adapterID": "flowpkg"})
    client.request("launch", {"program": root, "cwd": work, "stopOnEntry": True})
    client.wait_event("initialized")
    response = client.request("setBreakpoints", {"source": {"path": outside}, "breakpoints": [{"line": 1}]},
                              success=False)
    expect("outside the project" in response["message"], "a file outside the project: %r" % response)
    client.request("configurationDone")
    event, after = stopped(client, reason="entry")
    frames = top_frame(client)
    response = client.request("evaluate", {"expression": "1 +", "frameId": frames[0]["id"]}, success=False)
    expect("unexpected symbol" in response["message"] or "expected" in response["message"],
           "a syntax error: %r" % response)
    client.request("next", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    client.request("next", {"threadId": 1})
    client.wait_event("exited")
    response = client.request("stackTrace", {"threadId": 1}, success=False)
    expect("exited" in response["message"], "asked after the exit: %r" % response)
    client.request("threads")
    client.request("disconnect", {})
    client.close()


TICKER = """local ticks = 0
local function tick()
  ticks = ticks + 1
  return ticks
end
io.stderr:write("ready\\n")
while true do
  if tick() % 200000 == 0 then io.stderr:write("tick\\n") end
end
"""

TOKEN = "dap-test-token-1234"


class Served:
    """flowpkg serve on a free port, and the lines it logs, read as they come."""

    def __init__(self, flowpkg, root, cwd=None):
        import subprocess
        import threading

        self.process = subprocess.Popen(
            [flowpkg, "serve", root, "--port", "0", "--token", TOKEN, "--verbose"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd,
        )
        self.lines = []
        self.condition = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        line = self.wait_line(lambda l: l.startswith("Serving "))
        self.url = line.split(" at ")[1].strip()

    def _read(self):
        for line in self.process.stdout:
            with self.condition:
                self.lines.append(line)
                self.condition.notify_all()
        with self.condition:
            self.lines.append(None)
            self.condition.notify_all()

    def wait_line(self, predicate, after=0, timeout=180):
        with self.condition:
            def found():
                return next((l for l in self.lines[after:] if l is None or predicate(l)), False)
            if not self.condition.wait_for(lambda: found() is not False, timeout):
                raise DapError("serve never logged the line awaited: %r" % self.lines[-10:])
            line = found()
            if line is None:
                raise DapError("serve ended: %r" % self.lines[-10:])
            return line

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


class Program:
    """flowpkg run --live, its stderr read line by line."""

    def __init__(self, flowpkg, root, served, extra=(), cwd=None):
        import subprocess
        import threading

        self.process = subprocess.Popen(
            [flowpkg, "run", root, "--live", served.url, "--token", TOKEN] + list(extra),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
        )
        self.lines = []
        self.condition = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stderr:
            with self.condition:
                self.lines.append(line)
                self.condition.notify_all()

    def wait_line(self, text, after=0, timeout=180):
        with self.condition:
            if not self.condition.wait_for(lambda: any(text in l for l in self.lines[after:]), timeout):
                raise DapError("the program never wrote %r: %r" % (text, self.lines[-10:]))
            return len(self.lines)

    def stop(self):
        self.process.kill()
        self.process.wait(timeout=20)


def attach(flowpkg, work, root, served, program="com.example.demo", token=TOKEN, success=True):
    client = DapClient([flowpkg, "dap"], cwd=work)
    client.request("initialize", {"adapterID": "flowpkg"})
    response = client.request(
        "attach", {"serve": served.url, "token": token, "program": program, "cwd": root}, success=success
    )
    if success:
        client.wait_event("initialized")
    return client, response


def scenario_attach(flowpkg, work):
    root = make_project(work, main=TICKER)
    main = os.path.join(root, "Sources/Main.lua")
    served = Served(flowpkg, root)
    program = Program(flowpkg, root, served)
    try:
        served.wait_line(lambda l: "/v1/debug/program" in l)
        program.wait_line("ready")
        # A wrong token is refused, and the adapter goes on.
        client, response = attach(flowpkg, work, root, served, token="not-the-token-000", success=False)
        expect("token" in response["message"], "a wrong token: %r" % response)
        response = client.request("attach", {"serve": served.url, "token": TOKEN, "program": "com.example.other"},
                                  success=False)
        expect("no program" in response["message"], "another program: %r" % response)
        response = client.request("attach", {"serve": served.url, "token": TOKEN, "program": program.process.pid,
                                             "cwd": root})
        client.wait_event("initialized")
        response = client.request("setBreakpoints", {"source": {"path": main}, "breakpoints": [{"line": 3}]})
        expect(response["body"]["breakpoints"][0]["verified"], "verified: %r" % response["body"])
        client.request("configurationDone")
        event, after = stopped(client, reason="breakpoint")
        frames = top_frame(client)
        expect(frames[0]["name"] == "tick" and frames[0]["line"] == 3, "stopped in tick: %r" % frames[0])
        expect(frames[0]["source"].get("path") == main, "the project's file: %r" % frames[0]["source"])
        ticks = client.request("evaluate", {"expression": "ticks", "frameId": frames[0]["id"]})["body"]["result"]
        expect(int(ticks) >= 0, "ticks: %r" % ticks)
        seen = len(program.lines)
        client.request("disconnect", {})
        client.close()
        # Detached: the program runs on, with no breakpoint left.
        program.wait_line("tick", after=seen)
        expect(program.process.poll() is None, "the program still runs")
    finally:
        program.stop()
        served.stop()


WAITING = """print("first line ran")
local x = 41
print(x + 1)
"""


def scenario_wait_for_debugger(flowpkg, work):
    root = make_project(work, main=WAITING)
    main = os.path.join(root, "Sources/Main.lua")
    served = Served(flowpkg, root)
    program = Program(flowpkg, root, served, extra=["--wait-for-debugger", "60"])
    try:
        served.wait_line(lambda l: "/v1/debug/program" in l)
        client, _ = attach(flowpkg, work, root, served, program=None)
        client.request("setBreakpoints", {"source": {"path": main}, "breakpoints": [{"line": 1}]})
        client.request("configurationDone")
        event, after = stopped(client, reason="breakpoint")
        expect(top_frame(client)[0]["line"] == 1, "the program waited, and stopped on its first line")
        client.request("continue", {"threadId": 1})
        client.wait_event("terminated")
        expect(program.process.wait(timeout=120) == 0, "the program ran to its end")
        client.close()
    finally:
        if program.process.poll() is None:
            program.stop()
        served.stop()


TOOL = """local helper = require "helper"
local first = ...
print("args", first, arg[1], arg[2], select("#", ...))
print("cwd", io.open("data.txt"):read("a"))
local value = helper.twice(21)
print("value", value)
os.exit(value == 42 and 0 or 5)
"""

HELPER = """local M = {}
function M.twice(x)
  local y = x * 2
  return y
end
return M
"""


def scenario_launch_script(flowpkg, work):
    folder = os.path.join(work, "tool")
    script = write(folder, "tool.lua", TOOL)
    helper = write(folder, "helper.lua", HELPER)
    write(folder, "data.txt", "here")
    # The adapter starts in another folder: cwd is where the script runs and finds its modules.
    client = start(flowpkg, script, folder, {helper: [3]}, stop_on_entry=True, args=("first", "second"))
    event, after = stopped(client, reason="entry")
    frames = top_frame(client)
    expect(frames[0]["line"] == 1 and frames[0]["source"].get("path") == script, "on the script's first line: %r"
           % frames[0])
    client.request("continue", {"threadId": 1})
    # The helper loaded from a file require found: its breakpoint is verified and hits.
    client.wait_event("breakpoint", lambda e: e["body"]["breakpoint"]["verified"])
    event, after = stopped(client, after, reason="breakpoint")
    frames = top_frame(client)
    expect(frames[0]["line"] == 3 and frames[0]["source"].get("path") == helper, "in helper.twice: %r" % frames[0])
    x = client.request("evaluate", {"expression": "x", "frameId": frames[0]["id"]})["body"]["result"]
    expect(x == "21", "x is 21: %r" % x)
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    expect(exited["body"]["exitCode"] == 0, "exit 0: %r; %r" % (exited["body"], client.output()))
    out = client.output("stdout")
    expect("args\tfirst\tfirst\tsecond\t2\n" in out, "args as lua5.4 passes them: %r" % out)
    expect("cwd\there\n" in out and "value\t42\n" in out, "ran in cwd: %r" % out)
    client.close()


BROKEN_SCRIPT = """local ok = pcall(error, "caught one")
local t = nil
print(t.field)
"""


def scenario_script_exception(flowpkg, work):
    folder = os.path.join(work, "tool")
    script = write(folder, "broken.lua", BROKEN_SCRIPT)
    client = start(flowpkg, script, folder, {}, exceptions=("uncaught",))
    event, after = stopped(client, reason="exception")
    expect("attempt to index a nil value" in event["body"]["text"], "the error: %r" % event["body"])
    frames = top_frame(client)
    expect(frames[0]["line"] == 3 and frames[0]["source"].get("path") == script, "where it was raised: %r" % frames)
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    expect(exited["body"]["exitCode"] == 1, "lua5.4's status: %r" % exited["body"])
    expect("broken.lua:3: attempt to index a nil value" in client.output("stderr"), "lua5.4's message: %r"
           % client.output())
    # The traceback is lua5.4's, frame for frame: none of flowpkg's driver (issue 46, bug 13).
    import subprocess
    lua = subprocess.run(["lua5.4", os.path.basename(script)], cwd=folder, capture_output=True, text=True)
    shown = client.output("stderr")
    expect("stack traceback:" in shown and "stack traceback:" in lua.stderr, "tracebacks: %r, %r" % (shown, lua.stderr))
    expect(shown[shown.index("stack traceback:"):] == lua.stderr[lua.stderr.index("stack traceback:"):],
           "lua5.4's traceback: %r against %r" % (shown, lua.stderr))
    client.close()


THREADS = """local function worker(tag)
  local seen = tag
  coroutine.yield(seen)
  return seen
end
local a = coroutine.create(worker)
local b = coroutine.create(worker)
coroutine.resume(a, "alpha")
coroutine.resume(b, "beta")
local marker = 1
print(coroutine.resume(a))
"""


def scenario_coroutine_threads(flowpkg, work):
    root = make_project(work, main=THREADS)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {main: [10]})
    stopped(client, reason="breakpoint")
    threads = client.request("threads")["body"]["threads"]
    expect(len(threads) == 3 and threads[0]["id"] == 1 and threads[0]["name"] == "main",
           "main and the two suspended coroutines: %r" % threads)
    tags = []
    for thread in threads[1:]:
        frames = client.request("stackTrace", {"threadId": thread["id"]})["body"]["stackFrames"]
        # A coroutine's body has no name Lua can find: it is named where it is defined.
        expect(frames and frames[0]["name"].endswith("Main.lua:1>") and frames[0]["line"] == 3,
               "a coroutine suspended in worker's yield: %r" % frames)
        locals_, _ = scope(client, frames[0]["id"], "Locals")
        tags.append(locals_["seen"]["value"])
        value = client.request("evaluate", {"expression": "tag", "frameId": frames[0]["id"]})["body"]["result"]
        expect(value == locals_["seen"]["value"], "evaluate in the coroutine's frame: %r" % value)
    expect(sorted(tags) == ['"alpha"', '"beta"'], "each coroutine's own locals: %r" % tags)
    main_frames = client.request("stackTrace", {"threadId": 1})["body"]["stackFrames"]
    expect(main_frames[0]["line"] == 10, "thread 1 is where it stopped: %r" % main_frames)
    client.request("continue", {"threadId": 1})
    client.wait_event("exited")
    expect("true\talpha" in client.output("stdout"), "the program went on: %r" % client.output())
    client.close()


STEP_IN_COROUTINE = """local co = coroutine.wrap(function()
  local a = 1
  coroutine.yield(a)
  local b = 2
  return b
end)
co()
local between = "main"
co()
print("done")
"""


def scenario_next_stays_in_coroutine(flowpkg, work):
    root = make_project(work, main=STEP_IN_COROUTINE)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {main: [2]})
    event, after = stopped(client, reason="breakpoint")
    client.request("setBreakpoints", {"source": {"path": main}, "breakpoints": []})
    client.request("next", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    expect(top_frame(client)[0]["line"] == 3, "next to the yield")
    # Over the yield: the main chunk runs lines 7 to 9 unseen; the step ends back in the coroutine.
    client.request("next", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    frames = top_frame(client)
    expect(frames[0]["line"] == 4 and frames[0]["name"] != "main chunk", "still in the coroutine: %r" % frames[0])
    client.request("continue", {"threadId": 1})
    client.wait_event("exited")
    expect("done" in client.output("stdout"), "ran to its end: %r" % client.output())
    client.close()


VARIABLES = """local long = string.rep("x", 500)
local proxy = setmetatable({field = 1}, {__index = function() return "dflt" end, kind = "meta"})
local shared = 10
local function use()
  local inner = 5
  return shared + inner + proxy.field
end
print("result", use(), proxy.missing)
"""


def scenario_variables(flowpkg, work):
    root = make_project(work, main=VARIABLES)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {main: [6]})
    stopped(client, reason="breakpoint")
    frames = top_frame(client)
    use, chunk = frames[0], frames[1]
    # setVariable on a local and on an upvalue.
    locals_, locals_ref = scope(client, use["id"], "Locals")
    expect(locals_["inner"]["value"] == "5", "inner: %r" % locals_)
    body = client.request("setVariable", {"variablesReference": locals_ref, "name": "inner", "value": "7"})["body"]
    expect(body["value"] == "7", "the local set: %r" % body)
    upvalues, upvalues_ref = scope(client, use["id"], "Upvalues")
    body = client.request("setVariable", {"variablesReference": upvalues_ref, "name": "shared", "value": "shared * 2"})
    expect(body["body"]["value"] == "20", "the upvalue set from an expression: %r" % body)
    # A table's fields, its metatable shown, and a field set.
    proxy = upvalues["proxy"]
    expect(proxy["variablesReference"] > 0, "a table expands: %r" % proxy)
    fields = variables_of(client, proxy["variablesReference"])
    expect(fields["field"]["value"] == "1" and "(metatable)" in fields, "fields and the metatable: %r" % fields)
    meta = variables_of(client, fields["(metatable)"]["variablesReference"])
    expect(meta["kind"]["value"] == '"meta"' and meta["__index"]["type"] == "function", "the metatable: %r" % meta)
    body = client.request("setVariable", {"variablesReference": proxy["variablesReference"], "name": "field",
                                          "value": "100"})["body"]
    expect(body["value"] == "100", "the field set: %r" % body)
    # A long string is cut, and whole one level down (variables) or through evaluate.
    outer, _ = scope(client, chunk["id"], "Locals")
    long = outer["long"]
    expect("(500 bytes)" in long["value"] and len(long["value"]) < 300, "cut: %r" % long["value"])
    whole = list(variables_of(client, long["variablesReference"]).values())[0]["value"]
    expect(whole == '"' + "x" * 500 + '"', "whole: %d characters" % len(whole))
    evaluated = client.request("evaluate", {"expression": "long", "frameId": chunk["id"]})["body"]
    expect(evaluated["variablesReference"] > 0, "evaluate gives the whole too: %r" % evaluated)
    whole = list(variables_of(client, evaluated["variablesReference"]).values())[0]["value"]
    expect(len(whole) == 502, "whole through evaluate: %d" % len(whole))
    client.request("continue", {"threadId": 1})
    client.wait_event("exited")
    expect("result\t127\tdflt" in client.output("stdout"), "the program saw the new values: %r" % client.output())
    client.close()


SCENARIOS = {name[len("scenario_"):]: f for name, f in globals().items() if name.startswith("scenario_")}


def main(scenarios):
    """Runs the scenario argv names: `NAME FLOWPKG WORKDIR`; exits 1 with its failure."""
    name, flowpkg, work = sys.argv[1:4]
    try:
        scenarios[name](flowpkg, work)
    except DapError as error:
        print("scenario %s failed: %s" % (name, error), file=sys.stderr)
        sys.exit(1)
    finally:
        # Before Python waits for debugpy's (non-daemon) handler threads, which end once
        # their adapter's output does.
        end_all()


if __name__ == "__main__":
    main(SCENARIOS)
