# The update download benchmark: bytes, not seconds. A package with 60 MB of resources (60
# files of 1 MB of random bytes, as media are) and 20 modules is the embedded package; the
# update changes one module. `flowpkg run --updates --apply-now` takes the update from
# Tests/Fixtures/feed_server.py on loopback (byte ranges, as a CDN serves them), which logs
# every byte it sends. Goal (issue 25): bytes fetched <= 1.1 x (changed entries + manifest +
# index), where the changed entries are the changed module and manifest.sig, each as its
# bytes in the zip (local header, data, descriptor). Bytes do not depend on the build mode.
# Standalone: FLOWPKG=.build/debug/flowpkg BENCH_WORK=/tmp/w bash -c 'source Benchmarks/updates.sh; benchmark_updates'

benchmark_updates() {
  need_apt python3 python3 || { echo "benchmarks: python3 is needed" >&2; return 1; }
  local work="$BENCH_WORK/updates" root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  rm -rf "$work"
  mkdir -p "$work/App/Sources" "$work/App/Resources"
  echo "benchmarks: updates: building a package with 60 MB of resources" >&2
  python3 - "$work/App" <<'EOF'
import random, sys
root = sys.argv[1]
for i in range(60):
    random.seed(i)
    with open(f"{root}/Resources/media{i:02}.bin", "wb") as f:
        f.write(random.randbytes(1 << 20))
for i in range(20):
    with open(f"{root}/Sources/module{i:02}.lua", "w") as f:
        f.write(f"-- module {i}\nlocal M = {{}}\n" + "".join(f"function M.f{j}(x) return x + {j} end\n" for j in range(60)) + "return M\n")
with open(f"{root}/Sources/main.lua", "w") as f:
    f.write("for i = 0, 19 do require(string.format('module%02d', i)) end\nprint('version 1.0.0')\n")
with open(f"{root}/flowpkg.json", "w") as f:
    f.write('{"name": "App", "identifier": "com.example.app", "version": "1.0.0", "startModule": "main",'
            ' "sources": ["Sources"], "resources": ["Resources"]}\n')
EOF
  (
    cd "$work"
    "$FLOWPKG" keygen release >/dev/null
    "$FLOWPKG" export App -o App-1.0.0.luapkg --package-version 1.0.0 >/dev/null
    sed -i.bak 's/return x + 7 end/return x + 700 end/' App/Sources/module07.lua
    "$FLOWPKG" export App -o App-1.1.0.luapkg --package-version 1.1.0 --sign release.key >/dev/null
    "$FLOWPKG" publish App-1.1.0.luapkg --to feed --sign release.key >/dev/null
  ) || { echo "benchmarks: updates: the workload did not build" >&2; return 1; }
  : >"$work/served.log"
  python3 -u "$root/Tests/Fixtures/feed_server.py" --directory "$work/feed" --log "$work/served.log" >"$work/server.out" 2>&1 &
  local server=$! port=""
  for _ in $(seq 1 100); do port=$(sed -n 's/^port //p' "$work/server.out"); [[ -n "$port" ]] && break; sleep 0.1; done
  [[ -n "$port" ]] || { kill "$server"; echo "benchmarks: updates: the feed server did not start" >&2; return 1; }
  "$FLOWPKG" run "$work/App-1.0.0.luapkg" --updates "http://127.0.0.1:$port" --trusted-key "$work/release.pub" \
    --update-store "$work/store" --apply-now >"$work/run.out" 2>"$work/run.err"
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  grep -q "running update 1.1.0" "$work/run.err" || { echo "benchmarks: updates: the update did not run: $(cat "$work/run.err")" >&2; return 1; }
  local line
  line=$(python3 - "$work" <<'EOF'
import json, os, sys, zipfile
work = sys.argv[1]
def spans(path):
    z = zipfile.ZipFile(path)
    infos = sorted(z.infolist(), key=lambda i: i.header_offset)
    end = z.start_dir
    out = {}
    for k, info in enumerate(infos):
        nxt = infos[k + 1].header_offset if k + 1 < len(infos) else end
        out[info.filename] = (info.CRC, info.compress_size, nxt - info.header_offset)
    return out, end, os.path.getsize(path)
old, _, _ = spans(f"{work}/App-1.0.0.luapkg")
new, directory, size = spans(f"{work}/App-1.1.0.luapkg")
manifest = new["manifest.json"][2]
changed = sum(v[2] for k, v in new.items() if k != "manifest.json" and old.get(k, (None, None, None))[:2] != v[:2])
index = os.path.getsize(f"{work}/feed/index.json")
served = [json.loads(l) for l in open(f"{work}/served.log")]
fetched = sum(a["bytes"] for a in served)
goal = 1.1 * (changed + manifest + index)
print(size, fetched, changed, manifest, index, size - directory, len(served), f"{fetched / (changed + manifest + index):.3f}")
EOF
) || return 1
  read -r size fetched changed manifest index directory requests ratio <<<"$line"
  BENCH_NOTES+=("updates: package $size bytes (60 MB of resources in 60 files, 21 modules); after a one-module change the device fetched $fetched bytes in $requests answers: ratio $ratio of (changed entries $changed + manifest $manifest + index $index); goal <= 1.1 (the zip directory is $directory bytes of the package)")
  echo "updates: size=$size fetched=$fetched changed=$changed manifest=$manifest index=$index directory=$directory requests=$requests ratio=$ratio"
}
