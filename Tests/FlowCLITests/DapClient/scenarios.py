"""flowpkg dap's end-to-end scenarios, each run by DapCommandTests as
`python3 scenarios.py NAME FLOWPKG WORKDIR`: exit 0 when it held, else the failure on stderr."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import DapClient, DapError, expect, start, stopped, top_frame, variables_of, scope  # noqa: E402

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
    client.request("disconnect", {})
    client.close()
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


SCENARIOS = {name[len("scenario_"):]: f for name, f in globals().items() if name.startswith("scenario_")}

if __name__ == "__main__":
    name, flowpkg, work = sys.argv[1:4]
    try:
        SCENARIOS[name](flowpkg, work)
    except DapError as error:
        print("scenario %s failed: %s" % (name, error), file=sys.stderr)
        sys.exit(1)
