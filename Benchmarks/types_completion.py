#!/usr/bin/env python3
"""Member-completion latency of `flowpkg lsp` in the validate benchmark's tree (issue 47).

Starts `flowpkg lsp` on PROJECT, opens FILE (a module that requires others), and N times types
`NAME.` on a new last line (an incremental didChange) and asks for completion there, timing
each request from the completion written to its response read. Checks each answer lists the
module's members and no global. Prints `p50 p95 max items` (seconds, and the item count).
"""
import subprocess
import sys
import time

from lsp_wire import LspServer, percentile

flowpkg, project, module_file, name, rounds = sys.argv[1:6]
rounds = int(rounds)
server = LspServer(flowpkg)
server.initialize(project)
uri = "file://" + module_file
with open(module_file) as f:
    text = f.read()
last = text.count("\n")
server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lua", "version": 1, "text": text}})
times = []
items = 0
for n in range(rounds):
    typed = "print(%s." % name
    start_line = {"line": last, "character": 0}
    end = {"line": last, "character": 0} if n == 0 else {"line": last, "character": len(typed)}
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": n + 2},
                                             "contentChanges": [{"range": {"start": start_line, "end": end}, "text": typed}]})
    start = time.perf_counter()
    answer = server.request(n + 10, "textDocument/completion",
                     {"textDocument": {"uri": uri}, "position": {"line": last, "character": len(typed)}})
    times.append(time.perf_counter() - start)
    labels = [item["label"] for item in answer["result"]["items"]]
    if not labels or "print" in labels:
        sys.exit("completion of %s. answered %r" % (name, labels[:10]))
    items = len(labels)
times.sort()
# Printed before the server is stopped: its shutdown publishes the findings of every edit
# first, which under load takes longer than lsp_wire waits (the row was lost to that).
print("%.4f %.4f %.4f %d" % (percentile(times, 50), percentile(times, 95), times[-1], items), flush=True)
try:
    server.shutdown()
except subprocess.TimeoutExpired:
    server.process.kill()
