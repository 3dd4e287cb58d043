#!/usr/bin/env python3
"""Times process start-up: the median wall-clock and CPU time of each command, over alternating runs.

    startup.py ROUNDS 'LABEL::COMMAND ARGS' ...

The commands run in turn (A B C, A B C, ...) ROUNDS times, so a machine busy with other work
slows each of them alike. Wall time is read right around spawning and reaping the child; CPU
time is the child's own user + system time from wait4's resource usage, in microseconds
(bash's `times` gives whole milliseconds, too coarse for a program that runs for two). The
first command is the reference of the ratios. Prints one Markdown table row per command.
"""

import os
import shlex
import statistics
import sys
import time


def run_once(argv):
    devnull = os.open(os.devnull, os.O_RDWR)
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, devnull, 0),
        (os.POSIX_SPAWN_DUP2, devnull, 1),
        (os.POSIX_SPAWN_DUP2, devnull, 2),
    ])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"startup: {shlex.join(argv)} failed ({os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    rounds = int(sys.argv[1])
    rows = []
    for spec in sys.argv[2:]:
        label, _, command = spec.partition("::")
        rows.append((label, shlex.split(command)))
    walls = [[] for _ in rows]
    cpus = [[] for _ in rows]
    for argv in (argv for _, argv in rows):
        run_once(argv)  # warm the page cache once
    for _ in range(rounds):
        for i, (_, argv) in enumerate(rows):
            wall, cpu = run_once(argv)
            walls[i].append(wall)
            cpus[i].append(cpu)
    reference_wall = statistics.median(walls[0])
    reference_cpu = statistics.median(cpus[0])
    for i, (label, _) in enumerate(rows):
        wall = statistics.median(walls[i])
        cpu = statistics.median(cpus[i])
        if i == 0:
            ratios = ("—", "—")
        else:
            ratios = (f"{wall / reference_wall:.2f}×", f"{cpu / reference_cpu:.2f}×" if reference_cpu else "—")
        print(f"| {label} | {wall * 1000:.2f} | {ratios[0]} | {cpu * 1000:.2f} | {ratios[1]} |")


if __name__ == "__main__":
    main()
