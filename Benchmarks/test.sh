# The test benchmark: 40 spec files (Tests/FlowTestingTests/Fixtures/features, busted's whole API
# with every outcome, 29 tests a file) and the module they test, as one project with luassert
# and say as dev dependencies from a local rocks server (Debian's lua-luassert and lua-say).
# Rows: `flowpkg test` against busted 2.1.1 on Lua 5.4 (`lua5.4 /usr/bin/busted`) on the same
# folder (goal: ratio <= 0.5 against busted), and `flowpkg test --coverage` against the same run
# without it (goal: <= 1.3).
# Sourced by Benchmarks/run: `Benchmarks/run test`.

test_workload() {
  local work="$BENCH_WORK/test"
  [[ -f "$work/app/flowpkg.lock" ]] && return 0
  command -v luarocks >/dev/null || need_apt luarocks luarocks
  rm -rf "$work"
  mkdir -p "$work/server" "$work/src" "$work/app/spec" "$work/app/src"
  local rock folder module modules dir
  for rock in say luassert; do
    dir="$work/src/$rock"
    mkdir -p "$dir"
    modules=""
    while IFS= read -r file; do
      folder="${file#/usr/share/lua/5.1/}"
      mkdir -p "$dir/$(dirname "$folder")"
      cp "$file" "$dir/$folder"
      module="${folder%.lua}"
      module="${module//\//.}"
      module="${module%.init}"
      modules+="[\"$module\"] = \"$folder\", "
    done < <(find "/usr/share/lua/5.1/$rock" -name '*.lua' | sort)
    local version=1.4.1-1 deps='"lua >= 5.1"'
    [[ $rock == luassert ]] && version=1.9.0-1 deps='"lua >= 5.1", "say >= 1.4"'
    printf 'package = "%s"\nversion = "%s"\nsource = { url = "git://example.invalid/%s" }\ndependencies = { %s }\nbuild = { type = "builtin", modules = { %s } }\n' \
      "$rock" "$version" "$rock" "$deps" "$modules" >"$dir/$rock-$version.rockspec"
    (cd "$dir" && luarocks --lua-version 5.4 --tree "$work/scratch" make --deps-mode=none "$rock-$version.rockspec" >/dev/null)
    (cd "$work/server" && luarocks --lua-version 5.4 --tree "$work/scratch" pack "$rock" "$version" >/dev/null)
  done
  luarocks-admin make-manifest "$work/server" >/dev/null
  local fixture=Tests/FlowTestingTests/Fixtures/features
  cp "$fixture/src/calc.lua" "$work/app/src/"
  for i in $(seq -w 1 40); do cp "$fixture/spec/features_spec.lua" "$work/app/spec/features${i}_spec.lua"; done
  printf '{\n  "name": "tests", "identifier": "com.example.tests", "version": "1.0.0",\n  "sources": ["src"], "resources": [], "environment": "lua"\n}\n' \
    >"$work/app/flowpkg.json"
  (cd "$work/app" && FLOWPKG_CACHE="$work/cache" "$FLOWPKG" add --dev luassert --rocks-server "$work/server" >/dev/null)
}

benchmark_test() {
  [[ -f /usr/bin/busted ]] || need_apt busted lua-busted || { echo "benchmarks: busted is needed" >&2; return 1; }
  test_workload
  local app="$BENCH_WORK/test/app"
  export FLOWPKG_CACHE="$BENCH_WORK/test/cache"
  BENCH_NOTES+=("test: 40 spec files of 29 tests (busted's API, every outcome), $(nproc) cores")
  cd "$app"
  bench_row test busted busted -- lua5.4 /usr/bin/busted
  bench_row test "flowpkg test" busted -- "$FLOWPKG" test
  bench_measure test
  bench_row test_coverage "flowpkg test" "flowpkg test" -- "$FLOWPKG" test
  bench_row test_coverage "flowpkg test --coverage" "flowpkg test" -- "$FLOWPKG" test --coverage
  bench_measure test_coverage
  cd - >/dev/null
}
