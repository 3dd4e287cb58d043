# The watch benchmark: `flowpkg test --watch` on the test benchmark's project (40 spec files that
# require src/calc.lua) plus src/one.lua and spec/one_spec.lua, the only spec file requiring it.
# Each of 30 saves of src/one.lua is timed from the write to the rerun's summary line (goal: p50
# <= 100 ms), by Benchmarks/watch_latency.py.
# Sourced by Benchmarks/run: `Benchmarks/run test_watch`.

benchmark_test_watch() {
  source Benchmarks/test.sh
  test_workload
  local app="$BENCH_WORK/test/app"
  printf 'return { value = 1 }\n' >"$app/src/one.lua"
  printf "it('reads one', function() assert.are.equal(1, require('one').value) end)\n" >"$app/spec/one_spec.lua"
  local result
  result=$(FLOWPKG_CACHE="$BENCH_WORK/test/cache" python3 Benchmarks/watch_latency.py "$FLOWPKG" "$app" src/one.lua 30)
  rm -f "$app/src/one.lua" "$app/spec/one_spec.lua"
  echo "$result" >&2
  BENCH_NOTES+=("test_watch: save of src/one.lua to its one spec file's result: $(head -1 <<<"$result")")
}
