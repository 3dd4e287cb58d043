"""`flowpkg dev` on a new pseudo-terminal, read as a developer reads it: dev_pty.py and
dev_test_key.py drive it.

DevTerminal(flowpkg, project) forks `flowpkg dev PROJECT` on a new pty (its own session, so
Ctrl-C is the terminal's; NO_COLOR set, the rest of the environment passed on). `wait_for` reads
until a regex shows, `type` sends keys, `end` sends Ctrl-C and waits for the exit status; the
first step that fails prints the transcript and exits 1.
"""
import os
import pty
import re
import select
import sys
import time


class DevTerminal:
    def __init__(self, flowpkg, project):
        self.transcript = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["NO_COLOR"] = "1"
            os.execv(flowpkg, [flowpkg, "dev", project])

    def fail(self, step):
        sys.stdout.write(
            "FAIL: " + step + "\n--- transcript\n" + self.transcript.decode("utf-8", "replace") + "\n")
        try:
            os.kill(self.pid, 9)
        except OSError:
            pass
        sys.exit(1)

    def wait_for(self, pattern, step, after=0, timeout=30):
        """Reads the terminal until `pattern` (a regex) shows after offset `after`; returns the
        match, its offsets relative to the whole transcript."""
        deadline = time.monotonic() + timeout
        while True:
            match = re.compile(pattern.encode()).search(self.transcript, after)
            if match:
                return match
            left = deadline - time.monotonic()
            if left <= 0:
                self.fail(step + ": no " + repr(pattern))
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    self.fail(step + ": the terminal closed")
                if not chunk:
                    self.fail(step + ": the terminal closed")
                self.transcript += chunk

    def type(self, keys):
        os.write(self.fd, keys)

    def end(self, timeout=20):
        """Ctrl-C, then dev's exit status (None if it did not end in time)."""
        self.type(b"\x03")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done, raw = os.waitpid(self.pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(raw)
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.1)
                if ready:
                    self.transcript += os.read(self.fd, 65536)
            except OSError:
                pass
        return None

    def finish(self):
        sys.stdout.write("ok\n--- transcript\n" + self.transcript.decode("utf-8", "replace") + "\n")
