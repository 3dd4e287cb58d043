#!/usr/bin/env python3
"""flowpkg validate against luacheck 1.1 on real trees with their own `.luacheckrc` (issue 46).

For each tree: copy it to a scratch folder, add a flowpkg.json whose sources are the whole
tree (so flowpkg looks at every file luacheck does; `.luacheckrc`'s include_files and
exclude_files decide for both), run `flowpkg validate --format json` there and `luacheck .`
(its own configuration, no cache) from the same folder, and compare the findings counted on
file:line:code, both ways:

- luacheck's found by flowpkg: both / (both + luacheck only)
- flowpkg's found by luacheck: both / (both + flowpkg only)

Usage: Benchmarks/config_compare.py [--flowpkg PATH] [--details] [--config TEXT] TREE...

`--config TEXT` writes TEXT as the tree's `.luacheckrc` first (for a tree that has none, as
mrrescue: the configuration its players wrote). `--details` lists every difference.
"""
import collections, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


FLOWPKG = option("--flowpkg", os.path.join(HERE, "..", ".build", "debug", "flowpkg"))
CONFIG = option("--config")
DETAILS = "--details" in sys.argv
TREES = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--")
         and sys.argv[i - 1] not in ("--flowpkg", "--config")]


def catalogue():
    """FP code -> luacheck number, from the catalogue's titles in docs/diagnostics.md."""
    page = open(os.path.join(HERE, "..", "docs", "diagnostics.md")).read()
    found = {code: int(number) for code, number in re.findall(r"\| (FP\d+) \| \w+ \| [^|]*\(luacheck (\d+)\) \|", page)}
    found["FP405"] = 113
    return found


LUACHECK_BY_FP = catalogue()


def flowpkg_findings(root):
    with open(os.path.join(root, "flowpkg.json"), "w") as project:
        json.dump({"name": "tree", "identifier": "org.example.tree", "version": "1.0.0", "sources": ["."]}, project)
    out = subprocess.run([FLOWPKG, "validate", root, "--format", "json"], capture_output=True, text=True).stdout
    found = collections.Counter()
    for d in json.loads(out)["diagnostics"]:
        number = LUACHECK_BY_FP.get(d["code"])
        if number is None or d.get("line") is None:
            continue
        found[(os.path.relpath(os.path.join(root, d["file"]), root), d["line"], number)] += 1
    return found


def luacheck_findings(root):
    lines = subprocess.run(["luacheck", "--no-cache", "--formatter", "plain", "--codes", "."], cwd=root,
                           capture_output=True, text=True).stdout.splitlines()
    found = collections.Counter()
    for line in lines:
        m = re.match(r"(.+?):(\d+):(\d+): \(W(\d+)\)", line)
        if m:
            found[(os.path.normpath(m.group(1)), int(m.group(2)), int(m.group(4)))] += 1
    return found


def compare(tree, work):
    root = os.path.join(work, os.path.basename(os.path.normpath(tree)))
    shutil.copytree(tree, root, symlinks=True)
    if CONFIG is not None:
        with open(os.path.join(root, ".luacheckrc"), "w") as config:
            config.write(CONFIG.replace("\\n", "\n"))
    flow, check = flowpkg_findings(root), luacheck_findings(root)
    both = sum((flow & check).values())
    only_flow, only_check = flow - check, check - flow
    print(f"| {os.path.basename(root)} | {both} | {sum(only_check.values())} | {sum(only_flow.values())} | "
          f"{percent(both, both + sum(only_check.values()))} | {percent(both, both + sum(only_flow.values()))} |")
    if DETAILS:
        for key in sorted(only_check):
            print(f"  luacheck only: {key[0]}:{key[1]}: {key[2]} x{only_check[key]}")
        for key in sorted(only_flow):
            print(f"  flowpkg only: {key[0]}:{key[1]}: {key[2]} x{only_flow[key]}")


def percent(part, whole):
    return f"{100 * part / whole:.1f}%" if whole else "—"


def main():
    work = tempfile.mkdtemp(prefix="config-compare-")
    try:
        print("| tree | both | luacheck only | flowpkg only | luacheck's found by flowpkg | flowpkg's found by luacheck |")
        print("|---|---|---|---|---|---|")
        for tree in TREES:
            compare(tree, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
