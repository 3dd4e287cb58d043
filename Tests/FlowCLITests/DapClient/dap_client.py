"""The Debug Adapter Protocol client flowpkg's tests drive `flowpkg dap` with: debugpy's message
channel (`debugpy.common.messaging`, from PyPI, installed by .ci/setup), so the framing, the
sequence numbers and the matching of responses to requests are a client nobody here wrote.
Without debugpy the import below fails and so does every scenario: nothing is skipped."""

import atexit
import json
import subprocess
import threading
import time

from debugpy.common.messaging import JsonIOStream, JsonMessageChannel, MessageHandlers, NoMoreMessages

# Every adapter a scenario starts, ended when the scenario ends (even by a failure), so no
# adapter (or program one launched) outlives the test run.
_started = []


@atexit.register
def end_all():
    for client in _started:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()


class DapError(AssertionError):
    pass


def _plain(message):
    """A received message as plain dicts and lists: debugpy's MessageDict raises its own error
    for a missing key where the scenarios expect a dict's."""
    return json.loads(json.dumps(message))


class DapClient:
    def __init__(self, command, cwd=None):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd
        )
        _started.append(self)
        self.events = []
        self.condition = threading.Condition()
        self.closed = False
        self.stderr = b""
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.stream = JsonIOStream.from_process(self.process, name="flowpkg dap")
        handlers = MessageHandlers(event=self._on_event, request=self._on_request, disconnect=self._on_disconnect)
        self.channel = JsonMessageChannel(self.stream, handlers, name="flowpkg dap")
        # Started by the first request, so that read_reply can take the answer to a message
        # the channel never sent off the stream first.
        self.started = False

    def _drain_stderr(self):
        self.stderr = self.process.stderr.read()

    def _start(self):
        if not self.started:
            self.started = True
            self.channel.start()

    # Handlers run on the channel's handler thread; one that raised would end this process
    # (debugpy calls os._exit), so they only record.
    def _on_event(self, event):
        with self.condition:
            self.events.append(_plain(event.json))
            self.condition.notify_all()

    def _on_request(self, request):
        # flowpkg's adapter sends no reverse requests; one would be a failure the scenario sees
        # as an event it never waits for, answered so the adapter isn't left waiting.
        with self.condition:
            self.events.append({"event": "unexpected reverse request", "body": _plain(request.json)})
            self.condition.notify_all()
        raise request.cant_handle("this test client answers no reverse requests")

    def _on_disconnect(self):
        with self.condition:
            self.closed = True
            self.condition.notify_all()

    def send_raw(self, body):
        """Writes one framed message whose body is `body` straight to the adapter's stdin: a
        deliberate protocol violation (not JSON, say) that a real client, debugpy's channel
        included, cannot produce. Its answer, which names no request, is read with
        read_reply before the channel starts."""
        if self.started:
            raise DapError("send_raw is for before the first request: its answer matches no request")
        data = body if isinstance(body, bytes) else body.encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.process.stdin.flush()

    def read_reply(self):
        """The next message the adapter sends, read by debugpy's stream before the channel
        starts (the answer to send_raw: debugpy's channel drops a response to no request)."""
        if self.started:
            raise DapError("read_reply is for before the first request")
        try:
            return _plain(self.stream.read_json())
        except NoMoreMessages:
            raise DapError("the adapter ended before answering")

    def send(self, command, arguments=None):
        """Sends request `command`; returns debugpy's OutgoingRequest for wait_response."""
        self._start()
        answered = threading.Event()
        request = self.channel.send_request(command, arguments)
        request.on_response(lambda response: answered.set())
        request.answered = answered
        return request

    def wait_response(self, request, timeout=180):
        if not request.answered.wait(timeout):
            raise DapError("no response to request %d (%s)" % (request.seq, request.command))
        response = request.response
        if isinstance(response.body, NoMoreMessages):
            raise DapError("the adapter ended before answering request %d (%s)" % (request.seq, request.command))
        return _plain(response.json)

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
        self._start()

        def find():
            for index in range(after, len(self.events)):
                event = self.events[index]
                if event.get("event") == name and predicate(event):
                    return (event, index)
            return None

        with self.condition:
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
        """Closes the adapter's input (as an editor that goes away does) and waits for it to
        end; the channel then sees the end of its output and stops."""
        try:
            self.process.stdin.close()
        except Exception:
            pass
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise DapError("the adapter did not end once its input closed")
        if self.started:
            self.channel.wait()
        else:
            self.stream.close()


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
    """The next stop (with `reason`) from event `after` on; its thread is the one top_frame reads."""
    event, index = client.wait_event(
        "stopped", (lambda e: e["body"]["reason"] == reason) if reason else (lambda e: True), after=after
    )
    client.stopped_thread = event["body"]["threadId"]
    return event, index + 1


def top_frame(client, thread=None):
    """The frames of `thread`, by default the one the last stop named."""
    thread = thread if thread is not None else getattr(client, "stopped_thread", 1)
    frames = client.request("stackTrace", {"threadId": thread})["body"]["stackFrames"]
    expect(frames, "a stack while stopped")
    return frames


def variables_of(client, reference):
    return {v["name"]: v for v in client.request("variables", {"variablesReference": reference})["body"]["variables"]}


def scope(client, frame_id, name):
    scopes = client.request("scopes", {"frameId": frame_id})["body"]["scopes"]
    reference = next(s["variablesReference"] for s in scopes if s["name"] == name)
    return variables_of(client, reference), reference
