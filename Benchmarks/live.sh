# The live development benchmark: save-to-reload latency, from a module file written on disk to
# that module re-executed in a program running under `flowpkg run --live --watch`, through
# `flowpkg serve` on loopback (inotify, server-sent events, an HTTP fetch, Lua reload).
# Goal (issue 7): p50 < 50 ms, p99 < 200 ms.

benchmark_live() {
  need_apt python3 python3 || { echo "benchmarks: python3 is needed" >&2; return 1; }
  local rounds="${BENCH_LIVE_ROUNDS:-100}" result
  echo "benchmarks: live: $rounds saves" >&2
  result=$(python3 Benchmarks/live_latency.py "$FLOWPKG" "$rounds")
  read -r p50 p90 p99 max <<<"$result"
  BENCH_ROWS+=("live|save-to-reload p50|$p50|" "live|save-to-reload p90|$p90|" "live|save-to-reload p99|$p99|"
               "live|save-to-reload max|$max|")
  BENCH_NOTES+=("live: $rounds saves of one module; goal p50 < 0.050 s, p99 < 0.200 s")
}
