# The dependencies benchmark: an app with 20 rock dependencies (5 modules each, real Lua from
# Debian's lua-inspect), served from a local rocks server folder.
# Rows: `flowpkg export --locked --offline` warm (lock and cache in place) against
# `luarocks install` of the same 20 rocks into an empty tree (what a team without flowpkg runs
# on every checkout), and `flowpkg lock` cold (no lock, empty cache: luarocks resolves and
# installs into flowpkg's private tree, every file is hashed into the cache).
# Sourced by Benchmarks/run: `Benchmarks/run deps`.

deps_workload() {
  local work="$BENCH_WORK/deps"
  [[ -f "$work/app/flowpkg.lock" ]] && return 0
  command -v luarocks >/dev/null || need_apt luarocks luarocks
  rm -rf "$work"
  mkdir -p "$work/server" "$work/src" "$work/app/Sources"
  local inspect=/usr/share/lua/5.3/inspect.lua
  [[ -f $inspect ]] || need_apt lua-inspect lua-inspect
  local deps="" requires="" i m
  for i in $(seq -w 1 20); do
    local rock="bench$i" dir="$work/src/bench$i"
    mkdir -p "$dir/$rock"
    local modules=""
    for m in 1 2 3 4 5; do
      cp "$inspect" "$dir/$rock/m$m.lua"
      modules+="[\"$rock.m$m\"] = \"$rock/m$m.lua\", "
    done
    cat >"$dir/$rock-1.0-1.rockspec" <<SPEC
package = "$rock"
version = "1.0-1"
source = { url = "git://example.invalid/$rock" }
dependencies = { "lua >= 5.1" }
build = { type = "builtin", modules = { $modules } }
SPEC
    (cd "$dir" && luarocks --lua-version 5.4 --tree "$work/scratch" make --deps-mode=none "$rock-1.0-1.rockspec" >/dev/null)
    (cd "$work/server" && luarocks --lua-version 5.4 --tree "$work/scratch" pack "$rock" 1.0-1 >/dev/null)
    deps+="${deps:+, }\"$rock\": \">= 1.0\""
    requires+="local b$i = require \"$rock.m1\"
"
  done
  luarocks-admin make-manifest "$work/server" >/dev/null
  printf '%s' "$requires" >"$work/app/Sources/Main.lua"
  echo 'print("ok")' >>"$work/app/Sources/Main.lua"
  cat >"$work/app/flowpkg.json" <<JSON
{
  "name": "deps", "identifier": "com.example.deps", "version": "1.0.0", "startModule": "Main",
  "sources": ["Sources"], "resources": [], "environment": "lua",
  "rocksServers": ["$work/server"],
  "dependencies": { $deps }
}
JSON
  # The rockspec a LuaRocks user keeps instead, with the same 20 dependencies.
  cat >"$work/app-0-0.rockspec" <<SPEC
package = "app"
version = "0-0"
source = { url = "" }
dependencies = { $(for i in $(seq -w 1 20); do printf '"bench%s >= 1.0", ' "$i"; done) }
build = { type = "builtin", modules = {} }
SPEC
  FLOWPKG_CACHE="$work/cache" "$FLOWPKG" lock "$work/app" >/dev/null
}

benchmark_deps() {
  deps_workload || return 1
  local work="$BENCH_WORK/deps"
  bench_row deps "flowpkg export --locked --offline (20 rocks, warm)" "luarocks install (20 rocks)" -- \
    env FLOWPKG_CACHE="$work/cache" "$FLOWPKG" export --locked --offline "$work/app" -o "$work/app.luapkg" --force
  bench_row deps "luarocks install (20 rocks)" "luarocks install (20 rocks)" -- \
    bash -c "rm -rf '$work/tree' && luarocks --lua-version 5.4 --tree '$work/tree' --only-server '$work/server' install --only-deps '$work/app-0-0.rockspec' >/dev/null"
  bench_row deps "flowpkg lock (cold: no lock, empty cache)" "luarocks install (20 rocks)" -- \
    bash -c "rm -rf '$work/cold' && mkdir -p '$work/cold' && cp -r '$work/app' '$work/cold/app' && rm -f '$work/cold/app/flowpkg.lock' && FLOWPKG_CACHE='$work/cold/cache' '$FLOWPKG' lock '$work/cold/app' >/dev/null"
  BENCH_NOTES+=("deps: an app with 20 rock dependencies of 5 modules each (Debian's inspect.lua), from a local rocks server folder")
}
