"""A small Debug Adapter Protocol client for flowpkg's tests: Content-Length framing over a
child's stdin and stdout, requests answered by seq, events waited for by name."""

import atexit
import json
import os
import subprocess
import threading
import time

# Every adapter a scenario starts, ended when the scenario ends (even by a failure), so no
# adapter (or program one launched) outlives the test run.
_started = []


@atexit.register
def _end_all():
    for client in _started:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()


class DapError(AssertionError):
    pass


class DapClient:
    def __init__(self, command, cwd=None):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd
        )
        self.seq = 0
        self.responses = {}
        self.events = []
        self.condition = threading.Condition()
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.stderr = b""
        _started.append(self)

    def _drain_stderr(self):
        self.stderr = self.process.stderr.read()

    def _read(self):
        stream = self.process.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    with self.condition:
                        self.closed = True
                        self.condition.notify_all()
                    return
                header += byte
            length = 0
            for line in header.decode().split("\r\n"):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            message = json.loads(stream.read(length))
            with self.condition:
                if message.get("type") == "response":
                    self.responses[message["request_seq"]] = message
                else:
                    self.events.append(message)
                self.condition.notify_all()

    def send_raw(self, body):
        data = body if isinstance(body, bytes) else body.encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.process.stdin.flush()

    def send(self, command, arguments=None):
        self.seq += 1
        message = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        self.send_raw(json.dumps(message))
        return self.seq

    def wait_response(self, seq, timeout=180):
        with self.condition:
            if not self.condition.wait_for(lambda: seq in self.responses or self.closed, timeout):
                raise DapError("no response to request %d" % seq)
            if seq not in self.responses:
                raise DapError("the adapter ended before answering request %d" % seq)
            return self.responses[seq]

    def request(self, command, arguments=None, success=True, timeout=180):
        response = self.wait_response(self.send(command, arguments), timeout)
        if success is None:
            return response
        if success and not response["success"]:
            raise DapError("%s failed: %s" % (command, response.get("message")))
        if not success and response["success"]:
            raise DapError("%s should have failed: %r" % (command, response))
        return response

    def wait_event(self, name, predicate=lambda e: True, timeout=180, after=0):
        """The first event `name` at index >= after matching predicate; returns (event, index)."""
        def find():
            for index in range(after, len(self.events)):
                event = self.events[index]
                if event.get("event") == name and predicate(event):
                    return (event, index)
            return None

        with self.condition:
            found = None
            if not self.condition.wait_for(lambda: (find() is not None) or self.closed, timeout):
                raise DapError("no %s event; events: %s" % (name, self.summary()))
            found = find()
            if found is None:
                raise DapError("the adapter ended before a %s event; events: %s" % (name, self.summary()))
            return found

    def output(self, category=None):
        with self.condition:
            return "".join(
                e["body"]["output"]
                for e in self.events
                if e.get("event") == "output" and (category is None or e["body"]["category"] == category)
            )

    def launched_pid(self):
        """The process id of the program the adapter launched (its `process` event)."""
        event, _ = self.wait_event("process")
        return event["body"]["systemProcessId"]

    def summary(self):
        return [(e.get("event"), e.get("body")) for e in self.events][-20:]

    def close(self):
        try:
            self.process.stdin.close()
        except Exception:
            pass
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise DapError("the adapter did not end once its input closed")


def expect(condition, message):
    if not condition:
        raise DapError(message)


def process_gone(pid):
    """Whether process `pid` has ended (a zombie nobody reaped yet counts as ended)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pid, timeout=180):
    """Waits until process `pid` has ended; a DapError if it still runs after `timeout`."""
    deadline = time.monotonic() + timeout
    while not process_gone(pid):
        if time.monotonic() > deadline:
            raise DapError("process %d still runs" % pid)
        time.sleep(0.05)


def start(flowpkg, program, cwd, breakpoints, stop_on_entry=False, exceptions=("uncaught",), args=()):
    """initialize, launch, breakpoints by file, exception filters, configurationDone."""
    client = DapClient([flowpkg, "dap"], cwd=cwd)
    client.request("initialize", {"clientID": "flowpkg-tests", "adapterID": "flowpkg", "linesStartAt1": True})
    client.request(
        "launch", {"program": program, "cwd": cwd, "args": list(args), "stopOnEntry": stop_on_entry}
    )
    client.wait_event("initialized")
    for path, lines in breakpoints.items():
        specs = [line if isinstance(line, dict) else {"line": line} for line in lines]
        response = client.request("setBreakpoints", {"source": {"path": path}, "breakpoints": specs})
        expect(len(response["body"]["breakpoints"]) == len(specs), "one breakpoint per line asked")
    client.request("setExceptionBreakpoints", {"filters": list(exceptions)})
    client.request("configurationDone")
    return client


def stopped(client, after=0, reason=None):
    event, index = client.wait_event(
        "stopped", (lambda e: e["body"]["reason"] == reason) if reason else (lambda e: True), after=after
    )
    return event, index + 1


def top_frame(client):
    frames = client.request("stackTrace", {"threadId": 1})["body"]["stackFrames"]
    expect(frames, "a stack while stopped")
    return frames


def variables_of(client, reference):
    return {v["name"]: v for v in client.request("variables", {"variablesReference": reference})["body"]["variables"]}


def scope(client, frame_id, name):
    scopes = client.request("scopes", {"frameId": frame_id})["body"]["scopes"]
    reference = next(s["variablesReference"] for s in scopes if s["name"] == name)
    return variables_of(client, reference), reference
