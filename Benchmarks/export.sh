# The export benchmark: 2,200 real Lua files (a fixed part of Debian's /usr/share/lua/5.1, ×21) plus 160 MB of
# resources (80 MB of already-compressed media, 80 MB of text), as one project.
# Compares `flowpkg export` (validation, hashing and all) with `bsdtar -c --format zip` and
# Info-ZIP `zip -r` archiving the same folder. Goal: ratio <= 1.0 against bsdtar, stretch 0.7.
# Sourced by Benchmarks/run: `Benchmarks/run export`.

export_workload() {
  local project="$BENCH_WORK/export"
  [[ -f "$project/flowpkg.json" ]] && return 0
  rm -rf "$project"
  mkdir -p "$project/Sources" "$project/Resources/media" "$project/Resources/text"
  # One copy at the top, so the others' `require "pl.utils"` find a module; 20 more below it.
  bench_copy_lua_tree "$project/Sources"
  for i in $(seq -w 1 20); do
    mkdir -p "$project/Sources/copy$i"
    bench_copy_lua_tree "$project/Sources/copy$i"
  done
  # Media: 40 files of 2 MB of incompressible bytes, as PNG, JPEG and MP4 would be.
  # Text: 80 files of 1 MB, lines of real Lua and prose shuffled with a fixed seed.
  python3 - "$project/Resources" <<'PY'
import os, random, sys
root = sys.argv[1]
rng = random.Random(2100)
kinds = ["png", "jpg", "mp4", "webp"]
for i in range(40):
    with open(f"{root}/media/m{i:02d}.{kinds[i % 4]}", "wb") as f:
        f.write(rng.randbytes(2_000_000))
lines = []
for base in ("/usr/share/lua/5.1", "/usr/share/common-licenses"):
    for folder, _, files in os.walk(base):
        for name in files:
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    lines += f.read().splitlines()
            except (UnicodeDecodeError, OSError):
                pass
for i in range(80):
    rng.shuffle(lines)
    text, size = [], 0
    for line in lines:
        text.append(line); size += len(line) + 1
        if size >= 1_000_000: break
    with open(f"{root}/text/t{i:02d}.txt", "w", encoding="utf-8") as f:
        f.write("\n".join(text)[:1_000_000])
PY
  printf '{\n  "name": "ExportBenchmark",\n  "identifier": "com.example.exportbenchmark",\n  "version": "1.0.0",\n  "externalModules": ["lfs", "bit32", "bit", "lxp", "lpeg", "term.core", "system.core"]\n}\n' \
    >"$project/flowpkg.json"
}

benchmark_export() {
  need_apt bsdtar libarchive-tools || { echo "benchmarks: bsdtar is needed" >&2; return 1; }
  need_apt zip zip || true
  export_workload
  local project="$BENCH_WORK/export" out="$BENCH_WORK/export-out"
  mkdir -p "$out"
  local files size
  files=$(find "$project/Sources" -name '*.lua' | wc -l)
  size=$(du -sm "$project/Resources" | cut -f1)
  BENCH_NOTES+=("export: $files Lua files + ${size} MB of resources (half already-compressed media, half text)")
  if ! "$FLOWPKG" export "$project" -o "$out/flowpkg.luapkg" >"$BENCH_WORK/export-first.txt"; then
    cat "$BENCH_WORK/export-first.txt" >&2
    echo "benchmarks: flowpkg export refused the workload; no row" >&2
    return 1
  fi
  BENCH_NOTES+=("export: flowpkg says: $(head -n 1 "$BENCH_WORK/export-first.txt")")
  BENCH_NOTES+=("export: package $(stat -c %s "$out/flowpkg.luapkg" 2>/dev/null || stat -f %z "$out/flowpkg.luapkg") bytes")

  bench_row export "flowpkg export" "bsdtar -c --format zip" -- "$FLOWPKG" export "$project" -o "$out/flowpkg.luapkg"
  bench_row export "bsdtar -c --format zip" "flowpkg export" -- bsdtar -c --format zip -f "$out/bsdtar.zip" -C "$project" .
  if command -v zip >/dev/null; then
    bench_row export "zip -r" "bsdtar -c --format zip" -- sh -c "rm -f '$out/zip.zip' && cd '$project' && zip -q -r '$out/zip.zip' ."
  fi
}
