"""flowpkg dev under a pseudo-terminal, as a developer runs it: DevCommandTests runs this.

Usage: dev_pty.py FLOWPKG WORKDIR. Makes WorkDir/Hello from the console-app template, runs
`flowpkg dev Hello` on a new pty (dev_terminal.py), and checks each step by waiting for what it
prints. Prints the transcript and exits 1 at the first step that fails.
"""
import os
import subprocess
import sys

from dev_terminal import DevTerminal

flowpkg, work = sys.argv[1], sys.argv[2]
os.chdir(work)
subprocess.run([flowpkg, "new", "Hello", "--template", "console-app"], check=True, capture_output=True)
main = os.path.join("Hello", "Sources", "Main.lua")
dev = DevTerminal(flowpkg, "Hello")
fail = dev.fail


def wait_for(pattern, step, after=0, timeout=20):
    """The offset just after `pattern`'s first match after `after`."""
    return dev.wait_for(pattern, step, after, timeout).end()


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
dev.type(b"r\n")
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
dev.type(b"r\n")
at = wait_for(r"starting the program again", "r restarts a running program", at)
at = wait_for(r"error: Hello/Sources/Main\.lua:1: reload boom", "the fresh start runs the module", at)
at = wait_for(r"the program ended with status 1", "the fresh start ends", at)
save('print("back for good")\n')
at = wait_for(r"back for good", "a fix restarts again", at)

# The one broken save's syntax error was printed once: by dev's validation, not again by the
# program's failed reload.
if dev.transcript.count(b"')' expected") != 1:
    fail("the syntax error shows " + str(dev.transcript.count(b"')' expected")) + " times, not once")

children = subprocess.run(["pgrep", "-s", str(dev.pid)], capture_output=True, text=True).stdout.split()
if len(children) < 2:
    fail("the program runs in a child of dev: " + repr(children))

# Ctrl-C stops both: status 130, no process of its session left.
status = dev.end()
if status != 130:
    fail("Ctrl-C: exit status " + repr(status))
left = subprocess.run(["pgrep", "-s", str(dev.pid)], capture_output=True, text=True).stdout.split()
if left:
    fail("processes left behind: " + repr(left))
dev.finish()
