"""`flowpkg lsp` over its standard input and output, as an editor speaks to it: what
lsp_latency.py and types_completion.py share.

LspServer(flowpkg) starts `flowpkg lsp`; `send` writes one message with its Content-Length
head, `receive` reads one, `request` sends a request and returns its response (reading past
notifications), `initialize` does the handshake for a root folder, `shutdown` ends it.
`percentile(times, p)` is the nearest-rank percentile (p from 0 to 100) of sorted times.
"""
import json
import subprocess
import sys


class LspServer:
    def __init__(self, flowpkg):
        self.process = subprocess.Popen([flowpkg, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, bufsize=0)

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def receive(self):
        out = self.process.stdout
        length = None
        while True:
            line = out.readline()
            if not line:
                sys.exit("flowpkg lsp stopped")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = b""
        while len(body) < length:
            chunk = out.read(length - len(body))
            if not chunk:
                sys.exit("flowpkg lsp stopped")
            body += chunk
        return json.loads(body)

    def request(self, id, method, params):
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == id:
                return message

    def initialize(self, root):
        self.request(1, "initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
        self.notify("initialized", {})

    def shutdown(self):
        self.send({"jsonrpc": "2.0", "id": 0, "method": "shutdown", "params": None})
        self.notify("exit", None)
        self.process.wait(timeout=10)


def percentile(times, p):
    return times[min(len(times) - 1, int(round(p / 100.0 * (len(times) - 1))))]
