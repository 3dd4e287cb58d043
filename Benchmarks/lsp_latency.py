#!/usr/bin/env python3
"""Edit-to-diagnostics latency of `flowpkg lsp` in a generated 2,000-module project.

Generates the project (each module requires the one before it and reads the global it
defines), starts `flowpkg lsp`, opens one module in the middle and sends N incremental edits
that alternately add and remove an undefined global, timing each from the didChange written to
the publishDiagnostics for that document and version read. Prints `p50 p90 p99 max` in seconds.
"""
import json
import os
import sys
import tempfile
import time

from lsp_wire import LspServer, percentile

flowpkg, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200
modules = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
work = tempfile.mkdtemp(prefix="flowpkg-lsp-bench-")
project = os.path.join(work, "Big")
with_folders = 20
os.makedirs(os.path.join(project, "Sources"))
with open(os.path.join(project, "flowpkg.json"), "w") as f:
    json.dump({"name": "Big", "identifier": "com.example.lspbench", "version": "1.0.0"}, f)


def module_name(i):
    return "pkg%d.mod%d" % (i % with_folders, i)


for i in range(modules):
    path = os.path.join(project, "Sources", *module_name(i).split(".")) + ".lua"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = ["local M = {}"]
    if i > 0:
        lines.append('local previous = require "%s"' % module_name(i - 1))
        lines.append("function M.value() return previous.value() + value%d end" % (i - 1))
    else:
        lines.append("function M.value() return 0 end")
    # A deliberate definition: a plain `value = v` declares nothing (FP405 where it is read, FP409).
    lines.append("_G.value%d = %d" % (i, i))
    for k in range(40):
        lines.append("function M.f%d(a, b)\n  local t = {a, b, %d}\n  for i = 1, #t do t[i] = (t[i] or 0) * 2 end\n"
                     "  return string.format(\"%%d\", #t)\nend" % (k, k))
    lines.append("return M")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")

server = LspServer(flowpkg)
server.initialize(project)

middle = modules // 2
path = os.path.join(project, "Sources", *module_name(middle).split(".")) + ".lua"
uri = "file://" + path
with open(path) as f:
    text = f.read()
# The edits go before the module's last line, `return M` (nothing may follow a return).
last_line = text.count("\n") - 1
server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lua", "version": 1, "text": text}})


def wait_for_version(version):
    while True:
        message = server.receive()
        params = message.get("params") or {}
        if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri \
                and params.get("version") == version:
            return params["diagnostics"]


wait_for_version(1)
times = []
for n in range(rounds):
    version = n + 2
    if n % 2 == 0:
        change = {"range": {"start": {"line": last_line, "character": 0}, "end": {"line": last_line, "character": 0}},
                  "text": "pirnt(%d)\n" % n}
    else:
        change = {"range": {"start": {"line": last_line, "character": 0}, "end": {"line": last_line + 1, "character": 0}},
                  "text": ""}
    start = time.perf_counter()
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
    diagnostics = wait_for_version(version)
    times.append(time.perf_counter() - start)
    expected = 1 if n % 2 == 0 else 0
    if len(diagnostics) != expected:
        sys.exit("round %d: %d diagnostics, expected %d" % (n, len(diagnostics), expected))

server.shutdown()
times.sort()
print("%.4f %.4f %.4f %.4f" % (percentile(times, 50), percentile(times, 90), percentile(times, 99), times[-1]))
