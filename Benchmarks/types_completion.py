#!/usr/bin/env python3
"""Member-completion latency of `flowpkg lsp` in the validate benchmark's tree (issue 47).

Starts `flowpkg lsp` on PROJECT, opens FILE (a module that requires others), and N times types
`NAME.` on a new last line (an incremental didChange) and asks for completion there, timing
each request from the completion written to its response read. Checks each answer lists the
module's members and no global. Prints `p50 p95 max items` (seconds, and the item count).
"""
import json
import subprocess
import sys
import time

flowpkg, project, module_file, name, rounds = sys.argv[1:6]
rounds = int(rounds)
server = subprocess.Popen([flowpkg, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          bufsize=0)


def send(message):
    body = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def receive():
    length = None
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit("flowpkg lsp stopped")
        line = line.strip()
        if not line:
            break
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value)
    body = b""
    while len(body) < length:
        body += server.stdout.read(length - len(body))
    return json.loads(body)


def request(id, method, params):
    send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    while True:
        message = receive()
        if message.get("id") == id:
            return message


request(1, "initialize", {"processId": None, "rootUri": "file://" + project, "capabilities": {}})
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
uri = "file://" + module_file
with open(module_file) as f:
    text = f.read()
last = text.count("\n")
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "lua", "version": 1, "text": text}}})
times = []
items = 0
for n in range(rounds):
    typed = "print(%s." % name
    start_line = {"line": last, "character": 0}
    end = {"line": last, "character": 0} if n == 0 else {"line": last, "character": len(typed)}
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": n + 2},
                     "contentChanges": [{"range": {"start": start_line, "end": end}, "text": typed}]}})
    start = time.perf_counter()
    answer = request(n + 10, "textDocument/completion",
                     {"textDocument": {"uri": uri}, "position": {"line": last, "character": len(typed)}})
    times.append(time.perf_counter() - start)
    labels = [item["label"] for item in answer["result"]["items"]]
    if not labels or "print" in labels:
        sys.exit("completion of %s. answered %r" % (name, labels[:10]))
    items = len(labels)
send({"jsonrpc": "2.0", "id": 0, "method": "shutdown", "params": None})
send({"jsonrpc": "2.0", "method": "exit", "params": None})
times.sort()


def percentile(p):
    return times[min(len(times) - 1, int(p * len(times)))]


print("%.4f %.4f %.4f %d" % (percentile(0.5), percentile(0.95), times[-1], items))
