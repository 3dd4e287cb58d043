#!/usr/bin/env python3
"""flowpkg validate's lint classes against luacheck 1.1 on Debian's real Lua code bases.

For each code base: copy its Lua files into a project's Sources/ (as RealCodeBasesTests does),
run `flowpkg validate --format json` and `luacheck --std lua54` with the same globals on the
same files, and compare the findings (file, line, column, luacheck number) class by class:

- recall: the share of luacheck's warnings of the class flowpkg also gives;
- agreement: the share of flowpkg's warnings of the class luacheck also gives, or that a
  reader confirmed real (CONFIRMED_REAL below, each place read and its reason written down).

Usage: Benchmarks/lint_compare.py [FLOWPKG] [--base NAME] [--details CLASS] [--time] [--list CODES] [--keep DIR]

With --keep DIR, the projects are built in DIR (which must not exist) and left there, one folder
per code base, to profile or time again.

With --list FP482,FP483, also the findings of those codes (checks luacheck does not make, such
as arity), one a line, to read: how many per code, and each with its message and hint.

With --time, also the best of three wall times and CPU times, per code base, of flowpkg
validate, luacheck (one job, as Benchmarks/validate.sh runs it) and a lua5.4 loadfile loop over
the same files (a Markdown table), and below it the floor every run pays: the binary's start
(`flowpkg --version`) and a validate of an empty project (flowpkg.json and an empty Sources/),
best of ten.
"""
import json, os, re, shutil, subprocess, sys, tempfile, collections

def option(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


DETAILS = option("--details")
LIST = set((option("--list") or "").split(",")) - {""}
LISTED = []
ONLY = option("--base")
KEEP = option("--keep")
POSITIONAL = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and sys.argv[i - 1] not in
              ("--details", "--base", "--list", "--keep")]
FLOWPKG = POSITIONAL[0] if POSITIONAL else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "flowpkg")
LUA = "/usr/share/lua/5.1"
NMAP = "/usr/share/nmap"
CORPUS = "/usr/local/share/flowpkg-test-corpus"
RUNTIME = ["getResource", "addMessageHandler", "postMessage"]

# flowpkg's findings luacheck does not give that a reader confirmed real, by (code base, file,
# line, column, class): they count toward agreement.
CONFIRMED_REAL = {
    ("nmap", "vulns.lua", 1807, 30, 582): "`not type(t) == \"string\"` inside an `or`: always false",
    ("nmap", "scripts/telnet-encryption.lua", 62, 12, 582): "`not(cmd) == 0xF0`: always false",
}

BASES = [
    dict(name="penlight", copies=[(f"{LUA}/pl", "pl")], external=["lfs"]),
    dict(name="luacheck", copies=[(f"{LUA}/luacheck", "luacheck")], external=["lfs", "lanes"]),
    dict(name="busted", copies=[(f"{LUA}/{d}", d) for d in ["busted", "luassert", "say", "cliargs", "term",
                                                              "mediator.lua", "cliargs.lua"]],
         external=["lfs", "system", "term.core", "pl.*", "lyaml", "inifile", "ffi", "dkjson"]),
    dict(name="ldoc", copies=[(f"{LUA}/ldoc", "ldoc")], external=["lfs", "pl.*"],
         left_out=[f"ldoc/builtin/{n}.lua" for n in ["debug", "string", "utf8", "table", "lpeg", "global"]]),
    dict(name="prosody", copies=[(f"{CORPUS}/usr/lib/prosody/modules", "modules")],
         external=["*"], globals=["prosody", "hosts", "module", "import", "log", "core_post_stanza",
                                  "core_process_stanza", "core_route_stanza"]),
    dict(name="nmap", copies=[(f"{NMAP}/nselib", "."), (f"{NMAP}/scripts", "scripts")], external=["*"],
         globals=["SCRIPT_NAME", "SCRIPT_TYPE", "SCRIPT_PATH"]),
]


def copy_lua(source, target):
    if os.path.isfile(source):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(source, target)
        return
    for folder, _, files in os.walk(source):
        for name in files:
            if not (name.endswith(".lua") or name.endswith(".nse")):
                continue
            relative = os.path.relpath(os.path.join(folder, name), source)
            if name.endswith(".nse"):
                relative = relative[:-4] + ".lua"
            destination = os.path.join(target, relative)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            shutil.copy(os.path.join(folder, name), destination)


def luacheck_number(code):
    from_catalogue = LUACHECK_BY_FP.get(code)
    return from_catalogue


def catalogue():
    """FP code -> luacheck number, from the catalogue's titles in docs/diagnostics.md."""
    page = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "diagnostics.md")).read()
    found = {code: int(number) for code, number in re.findall(r"\| (FP\d+) \| \w+ \| [^|]*\(luacheck (\d+)\) \|", page)}
    found["FP405"] = 113
    return found


LUACHECK_BY_FP = catalogue()


def run(base, work):
    root = os.path.join(work, base["name"])
    sources = os.path.join(root, "Sources")
    os.makedirs(sources)
    for source, target in base["copies"]:
        copy_lua(source, sources if target == "." else os.path.join(sources, target))
    for path in base.get("left_out", []):
        os.remove(os.path.join(sources, path))
    # Files lua5.4 does not compile are left out of both (luacheck reports them as syntax errors).
    for folder, _, files in os.walk(sources):
        for name in files:
            path = os.path.join(folder, name)
            if subprocess.run(["luac5.4", "-p", path], capture_output=True).returncode != 0:
                os.remove(path)
    globals_ = base.get("globals", [])
    json.dump({"name": "corpus", "identifier": "org.debian.corpus", "version": "1.0.0",
               "externalModules": base["external"], "globals": globals_}, open(os.path.join(root, "flowpkg.json"), "w"))
    out = subprocess.run([FLOWPKG, "validate", root, "--format", "json"], capture_output=True, text=True).stdout
    flow = collections.Counter()
    for d in json.loads(out)["diagnostics"]:
        if d["code"] in LIST:
            LISTED.append(f"{base['name']}: {os.path.relpath(os.path.join(root, d['file']), sources)}:{d.get('line')}:"
                          f"{d.get('column')}: {d['code']} {d['message']} ({d.get('hint', '')})")
        number = LUACHECK_BY_FP.get(d["code"])
        if number is None or d.get("line") is None:
            continue
        path = os.path.relpath(os.path.join(root, d["file"]), sources)
        flow[(path, d["line"], d["column"], number)] += 1
    args = ["luacheck", "--no-config", "--no-cache", "--std", "lua54", "--formatter", "plain", "--codes", "-j", "2",
            "--globals", *(globals_ + RUNTIME), "--", "."]
    if TIME:
        files = sorted(os.path.relpath(os.path.join(f, n), sources) for f, _, ns in os.walk(sources) for n in ns)
        listing = os.path.join(root, "files.txt")
        open(listing, "w").write("\n".join(files) + "\n")
        loop = os.path.join(root, "loadfile.lua")
        open(loop, "w").write("for path in io.lines(arg[1]) do assert(loadfile(path)) end\n")
        TIMES.append((base["name"], len(files),
                      best([FLOWPKG, "validate", root]),
                      best(["luacheck", "--no-config", "--no-cache", "--std", "lua54", "-q",
                            "--globals", *(globals_ + RUNTIME), "--", "."], cwd=sources),
                      best(["lua5.4", loop, listing], cwd=sources)))
    lines = subprocess.run(args, capture_output=True, text=True, cwd=sources).stdout.splitlines()
    check = collections.Counter()
    for line in lines:
        m = re.match(r"(.+?):(\d+):(\d+): \(W(\d+)\)", line)
        if m:
            path = os.path.normpath(m.group(1))
            check[(path, int(m.group(2)), int(m.group(3)), int(m.group(4)))] += 1
    return flow, check


TIME = "--time" in sys.argv
TIMES = []


def best(command, cwd=None, rounds=3):
    """The best wall time and the best CPU time (user + system of the command and its
    children) of a few runs, in seconds: on a shared machine the CPU time says more."""
    import resource, time
    walls, cpus = [], []
    for _ in range(rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def main():
    work = KEEP or tempfile.mkdtemp(prefix="lint-compare-")
    # class -> [both, luacheck only, flowpkg only, of which confirmed real]
    totals = collections.defaultdict(lambda: [0, 0, 0, 0])
    details = []
    try:
        for base in BASES:
            if ONLY and base["name"] != ONLY:
                continue
            if not all(os.path.exists(s) for s, _ in base["copies"]):
                print(f"skipping {base['name']}: not installed", file=sys.stderr)
                continue
            flow, check = run(base, work)
            keys = set(flow) | set(check)
            for key in keys:
                number = key[3]
                both = min(flow[key], check[key])
                totals[number][0] += both
                totals[number][1] += check[key] - both
                totals[number][2] += flow[key] - both
                if flow[key] > both and (base["name"], *key) in CONFIRMED_REAL:
                    totals[number][3] += flow[key] - both
                if DETAILS and str(number) == DETAILS and flow[key] != check[key]:
                    details.append(f"{base['name']}: {key} flowpkg {flow[key]} luacheck {check[key]}")
    finally:
        if not KEEP:
            shutil.rmtree(work, ignore_errors=True)
    print("| luacheck class | both | luacheck only | flowpkg only (confirmed real) | recall | agreement |")
    print("|---|---|---|---|---|---|")
    for number in sorted(totals):
        both, only_check, only_flow, confirmed = totals[number]
        recall = f"{100 * both / (both + only_check):.1f}%" if both + only_check else "—"
        agreed = both + confirmed
        agreement = f"{100 * agreed / (both + only_flow):.1f}%" if both + only_flow else "—"
        print(f"| {number} | {both} | {only_check} | {only_flow} ({confirmed}) | {recall} | {agreement} |")
    for line in details:
        print(line)
    if LIST:
        print()
        for code in sorted(LIST):
            print(f"{code}: {sum(1 for l in LISTED if f' {code} ' in l)} findings")
        for line in LISTED:
            print(line)
    if TIMES:
        floor = tempfile.mkdtemp(prefix="lint-floor-")
        try:
            os.makedirs(os.path.join(floor, "Sources"))
            json.dump({"name": "empty", "identifier": "org.example.empty", "version": "1.0.0"},
                      open(os.path.join(floor, "flowpkg.json"), "w"))
            floors = [("flowpkg --version (binary start)", best([FLOWPKG, "--version"], rounds=10)),
                      ("flowpkg validate, empty project", best([FLOWPKG, "validate", floor], rounds=10))]
        finally:
            shutil.rmtree(floor, ignore_errors=True)
        print()
        print("| code base | files | flowpkg validate s (CPU s) | luacheck s (CPU s) | vs luacheck (CPU) "
              "| lua5.4 loadfile loop s (CPU s) | vs loadfile (CPU) |")
        print("|---|---|---|---|---|---|---|")
        for name, files, flow, check, loop in TIMES:
            print(f"| {name} | {files} | {flow[0]:.3f} ({flow[1]:.3f}) | {check[0]:.3f} ({check[1]:.3f}) | "
                  f"{check[0] / flow[0]:.1f}× faster ({check[1] / flow[1]:.1f}×) | {loop[0]:.3f} ({loop[1]:.3f}) | "
                  f"{flow[0] / loop[0]:.2f}× ({flow[1] / loop[1]:.2f}×) |")
        print()
        print("| floor | s (CPU s) | 50× luacheck needs, per code base (CPU s) |")
        print("|---|---|---|")
        for name, (wall, cpu) in floors:
            needs = ", ".join(f"{base} {check[1] / 50:.4f}" for base, _, _, check, _ in TIMES)
            print(f"| {name} | {wall:.4f} ({cpu:.4f}) | {needs} |")


main()
