"""flowpkg dap's scenarios for issue 46's DAP items and issue 45's spec launch, each run by
DapFeatureTests as `python3 features.py NAME FLOWPKG WORKDIR`: exit 0 when it held, else the
failure on stderr. The project, the client and serve's helpers are scenarios.py's."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import DapClient, expect, scope, start, stopped, top_frame  # noqa: E402
from scenarios import ERRORS, TICKER, UTIL, Program, Served, attach, main, make_project, write  # noqa: E402

YIELDING = """local co = coroutine.create(function()
  for i = 1, 2 do
    local here = i
    coroutine.yield(here)
  end
end)
coroutine.resume(co)
local marker = 1
coroutine.resume(co)
print("done")
"""


def scenario_thread_ids_stable(flowpkg, work):
    root = make_project(work, main=YIELDING)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {main: [3, 8]})
    event, after = stopped(client, reason="breakpoint")
    coroutine = event["body"]["threadId"]
    expect(coroutine != 1, "a coroutine stopped: its own id, not the main thread's: %r" % event["body"])
    expect(top_frame(client)[0]["line"] == 3, "the coroutine's frames under its id")
    threads = {t["id"]: t["name"] for t in client.request("threads")["body"]["threads"]}
    expect(threads.get(1) == "main" and coroutine in threads, "main keeps id 1 beside the coroutine: %r" % threads)
    main_frames = top_frame(client, thread=1)
    expect(main_frames[0]["line"] == 7, "thread 1 is the main chunk, resuming at line 7: %r" % main_frames)
    client.request("continue", {"threadId": coroutine})
    event, after = stopped(client, after, reason="breakpoint")
    expect(event["body"]["threadId"] == 1 and top_frame(client)[0]["line"] == 8, "main stops as 1: %r" % event)
    client.request("continue", {"threadId": 1})
    event, after = stopped(client, after, reason="breakpoint")
    expect(event["body"]["threadId"] == coroutine, "the coroutine stops again with the same id: %r" % event)
    client.request("continue", {"threadId": coroutine})
    client.wait_event("exited")
    expect("done" in client.output("stdout"), "ran to its end: %r" % client.output())
    client.close()


GREETINGS = """local function greet(n)
  local message = "hi " .. n
  return message
end
local start = 0
for i = 1, 5 do
  greet(i)
end
print("end", start)
"""


def scenario_logpoint_every_hit(flowpkg, work):
    root = make_project(work, main=GREETINGS)
    main = os.path.join(root, "Sources/Main.lua")
    client = start(flowpkg, root, work, {main: [{"line": 2, "logMessage": "call {n}"}, 5]})
    event, after = stopped(client, reason="breakpoint")
    client.request("next", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    client.request("next", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    expect(top_frame(client)[0]["line"] == 7, "at the first call: %r" % top_frame(client)[0])
    # Stepping into the first call arrives on the log point's line: it logs there too.
    client.request("stepIn", {"threadId": 1})
    event, after = stopped(client, after, reason="step")
    expect(top_frame(client)[0]["line"] == 2, "stepped into greet: %r" % top_frame(client)[0])
    client.request("continue", {"threadId": 1})
    client.wait_event("exited")
    logged = client.output("console")
    expect(logged == "call 1\ncall 2\ncall 3\ncall 4\ncall 5\n", "one line per call, five calls: %r" % logged)
    client.close()


def initialized_client(flowpkg, work):
    client = DapClient([flowpkg, "dap"], cwd=work)
    capabilities = client.request("initialize", {"adapterID": "flowpkg", "linesStartAt1": True})["body"]
    return client, capabilities


def scenario_function_breakpoints(flowpkg, work):
    root = make_project(work)
    util = os.path.join(root, "Sources/app/util.lua")
    client, capabilities = initialized_client(flowpkg, work)
    expect(capabilities.get("supportsFunctionBreakpoints"), "advertised: %r" % capabilities)
    client.request("launch", {"program": root, "cwd": work})
    client.wait_event("initialized")
    set_ = client.request("setFunctionBreakpoints", {"breakpoints": [{"name": "bump"}, {"name": "util.double"},
                                                                     {"name": "nowhere"}]})
    expect(len(set_["body"]["breakpoints"]) == 3, "one per name: %r" % set_["body"])
    client.request("configurationDone")
    event, after = stopped(client, reason="function breakpoint")
    frames = top_frame(client)
    expect(frames[0]["name"] == "bump" and frames[0]["line"] == 4, "bump's first line: %r" % frames[0])
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(locals_["n"]["value"] == "2", "its argument: %r" % locals_)
    client.request("continue", {"threadId": 1})
    event, after = stopped(client, after, reason="function breakpoint")
    frames = top_frame(client)
    expect(frames[0]["line"] == 3 and frames[0]["source"].get("path") == util, "M.double's first line: %r" % frames[0])
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    expect(exited["body"]["exitCode"] == 3, "ran to its end: %r" % exited["body"])
    verified = [e["body"]["breakpoint"] for e in client.events if e.get("event") == "breakpoint"]
    expect(any(b["verified"] and b["line"] == 4 for b in verified), "bump verified once loaded: %r" % verified)
    client.close()


def scenario_exception_info(flowpkg, work):
    root = make_project(work, main=ERRORS)
    client, capabilities = initialized_client(flowpkg, work)
    expect(capabilities.get("supportsExceptionInfoRequest"), "advertised: %r" % capabilities)
    client.close()
    client = start(flowpkg, root, work, {}, exceptions=("uncaught",))
    event, after = stopped(client, reason="exception")
    info = client.request("exceptionInfo", {"threadId": event["body"]["threadId"]})["body"]
    expect("attempt to index a nil value" in info["description"], "the error: %r" % info)
    expect(info["breakMode"] == "unhandled" and info["exceptionId"], "uncaught: %r" % info)
    client.request("continue", {"threadId": 1})
    client.wait_event("exited")
    client.close()


def scenario_repl_completions(flowpkg, work):
    root = make_project(work)
    main = os.path.join(root, "Sources/Main.lua")
    client, capabilities = initialized_client(flowpkg, work)
    expect(capabilities.get("supportsCompletionsRequest"), "advertised: %r" % capabilities)
    client.close()
    client = start(flowpkg, root, work, {main: [4]})
    stopped(client, reason="breakpoint")
    frames = top_frame(client)

    def labels(text, frame):
        body = client.request("completions", {"text": text, "column": len(text) + 1, "frameId": frame["id"]})["body"]
        return {t["label"]: t.get("type") for t in body["targets"]}

    found = labels("coun", frames[0])
    expect("counter" in found, "an upvalue of the frame: %r" % found)
    found = labels("x = n", frames[0])
    expect("n" in found and "next" in found and found["next"] == "function", "a local and a global: %r" % found)
    found = labels("util.dou", frames[1])
    expect(list(found) == ["double"], "a module table's field, in the main chunk's frame: %r" % found)
    found = labels("string.for", frames[0])
    expect("format" in found, "a library's field: %r" % found)
    client.request("disconnect", {})
    client.close()


def scenario_attach_from_the_parent_folder(flowpkg, work):
    # As the README has it: serve and the program started in the project's parent folder,
    # the editor's launch.json with cwd the project folder.
    root = make_project(work, main=TICKER)
    main = os.path.join(root, "Sources/Main.lua")
    served = Served(flowpkg, "Demo", cwd=work)
    program = Program(flowpkg, "Demo", served, cwd=work)
    try:
        served.wait_line(lambda l: "/v1/debug/program" in l)
        program.wait_line("ready")
        client, _ = attach(flowpkg, work, root, served)
        response = client.request("setBreakpoints", {"source": {"path": main}, "breakpoints": [{"line": 3}]})
        expect(response["body"]["breakpoints"][0]["verified"], "verified: %r" % response["body"])
        client.request("configurationDone")
        stopped(client, reason="breakpoint")
        frames = top_frame(client)
        expect(frames[0]["source"].get("path") == main, "the project's file, not a reference: %r" % frames[0])
        client.request("disconnect", {})
        client.close()
    finally:
        program.stop()
        served.stop()


SPEC = """local util = require("app.util")
describe("util", function()
  it("doubles", function()
    local value = util.double(21)
    assert.are.equal(42, value)
  end)
end)
"""


def scenario_launch_spec(flowpkg, work):
    # The project (flowpkg new, luassert a dev dependency) is made by the Swift test: work/app.
    root = os.path.join(work, "app")
    write(root, "Sources/app/util.lua", UTIL)
    spec = write(root, "spec/util_spec.lua", SPEC)
    util = os.path.join(root, "Sources/app/util.lua")
    client = start(flowpkg, spec, root, {spec: [4], util: [3]})
    event, after = stopped(client, reason="breakpoint")
    frames = top_frame(client)
    expect(frames[0]["line"] == 4 and frames[0]["source"].get("path") == spec, "in the spec: %r" % frames[0])
    client.request("stepIn", {"threadId": 1})
    event, after = stopped(client, after)
    frames = top_frame(client)
    expect(frames[0]["line"] == 3 and frames[0]["source"].get("path") == util, "in the module: %r" % frames[0])
    locals_, _ = scope(client, frames[0]["id"], "Locals")
    expect(locals_["x"]["value"] == "21", "its argument: %r" % locals_)
    client.request("continue", {"threadId": 1})
    exited, _ = client.wait_event("exited")
    expect(exited["body"]["exitCode"] == 0, "the spec passed: %r; %r" % (exited["body"], client.output()))
    expect("1 success" in client.output() or "1 passed" in client.output(), "the report: %r" % client.output())
    client.close()


SCENARIOS = {name[len("scenario_"):]: f for name, f in globals().items() if name.startswith("scenario_")}

if __name__ == "__main__":
    main(SCENARIOS)
