"""flowpkg dev under a pseudo-terminal, as a developer runs it: DevCommandTests runs this.

Usage: dev_pty.py FLOWPKG WORKDIR. Makes WorkDir/Hello from the console-app template, runs
`flowpkg dev Hello` on a new pty (its own session, so Ctrl-C is the terminal's), and checks each
step by waiting for what it prints. Prints the transcript and exits 1 at the first step that fails.
"""
import os
import pty
import re
import select
import subprocess
import sys
import time

flowpkg, work = sys.argv[1], sys.argv[2]
os.chdir(work)
subprocess.run([flowpkg, "new", "Hello", "--template", "console-app"], check=True, capture_output=True)
main = os.path.join("Hello", "Sources", "Main.lua")
transcript = b""

pid, fd = pty.fork()
if pid == 0:
    os.environ["NO_COLOR"] = "1"
    os.execv(flowpkg, [flowpkg, "dev", "Hello"])


def fail(step):
    sys.stdout.write("FAIL: " + step + "\n--- transcript\n" + transcript.decode("utf-8", "replace") + "\n")
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    sys.exit(1)


def wait_for(pattern, step, after=0, timeout=20):
    """Reads the terminal until `pattern` (a regex) shows after offset `after`."""
    global transcript
    deadline = time.monotonic() + timeout
    while True:
        match = re.search(pattern.encode(), transcript[after:])
        if match:
            return after + match.end()
        left = deadline - time.monotonic()
        if left <= 0:
            fail(step + ": no " + repr(pattern))
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                fail(step + ": the terminal closed")
            if not chunk:
                fail(step + ": the terminal closed")
            transcript += chunk


def save(text):
    with open(main + ".tmp", "w") as f:
        f.write(text)
    os.replace(main + ".tmp", main)


# The URL, once, with the token in it; the program's first frame.
at = wait_for(r"Session page: http://127\.0\.0\.1:\d+/session\?token=[0-9a-f]{32}\r?\n", "the session page URL")
at = wait_for(r"\| Hello from Hello! +\|", "the program's first output")

# A save runs the module again.
save('print("second version")\n')
at = wait_for(r"second version", "a save re-runs", at)

# A broken save: the diagnostic (path as validate prints it), and the old code keeps running.
save('print("broken"\n')
at = wait_for(r"Hello/Sources/Main\.lua:2:1: error: .*\[FP301\]", "the broken save's diagnostic", at)
at = wait_for(r"keeps its last good code", "the last good code kept", at)

# A program that ends: said, and not started again on its own.
save('print("leaving") os.exit(3)\n')
at = wait_for(r"the program ended with status 3; it starts again at the next save, or now with r and Enter", "the end", at)

# A save starts it again: its start module fails at the top level.
save('error("top-level boom")\n')
at = wait_for(r"error: Hello/Sources/Main\.lua:1: top-level boom", "the top-level error", at)
at = wait_for(r"the program ended with status 1", "the crash", at)

# r + Enter starts it again at once.
os.write(fd, b"r\n")
at = wait_for(r"starting the program again", "r restarts", at)
at = wait_for(r"error: Hello/Sources/Main\.lua:1: top-level boom", "the restart runs the module", at)
at = wait_for(r"the program ended with status 1", "the restart ends again", at)

# The fix starts it again.
save('print("back again")\n')
at = wait_for(r"back again", "a fix restarts", at)
# A reload that fails at the top level leaves the program running on its old code; r + Enter
# starts it afresh even so (issue 46: it was ignored while the program ran).
save('print("reloaded once") error("reload boom")\n')
at = wait_for(r"error: reloading Main: Hello/Sources/Main\.lua:1: reload boom", "the failed reload", at)
os.write(fd, b"r\n")
at = wait_for(r"starting the program again", "r restarts a running program", at)
at = wait_for(r"error: Hello/Sources/Main\.lua:1: reload boom", "the fresh start runs the module", at)
at = wait_for(r"the program ended with status 1", "the fresh start ends", at)
save('print("back for good")\n')
at = wait_for(r"back for good", "a fix restarts again", at)

# The one broken save's syntax error was printed once: by dev's validation, not again by the
# program's failed reload.
if transcript.count(b"')' expected") != 1:
    fail("the syntax error shows " + str(transcript.count(b"')' expected")) + " times, not once")

children = subprocess.run(["pgrep", "-s", str(pid)], capture_output=True, text=True).stdout.split()
if len(children) < 2:
    fail("the program runs in a child of dev: " + repr(children))

# Ctrl-C stops both: status 130, no process of its session left.
os.write(fd, b"\x03")
deadline = time.monotonic() + 20
status = None
while time.monotonic() < deadline:
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(raw)
        break
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            transcript += os.read(fd, 65536)
        except OSError:
            pass
if status != 130:
    fail("Ctrl-C: exit status " + repr(status))
left = subprocess.run(["pgrep", "-s", str(pid)], capture_output=True, text=True).stdout.split()
if left:
    fail("processes left behind: " + repr(left))
sys.stdout.write("ok\n--- transcript\n" + transcript.decode("utf-8", "replace") + "\n")
