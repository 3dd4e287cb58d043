# The `flowpkg dev` benchmark (issue 37): on the console-app template, from a save of the start
# module to the re-run program's first line in dev's output (inotify, rescan, server-sent event,
# HTTP fetch, Lua reload and print through the child `run`). Goal: p50 <= 15 ms.

benchmark_dev() {
  need_apt python3 python3 || { echo "benchmarks: python3 is needed" >&2; return 1; }
  local rounds="${BENCH_DEV_ROUNDS:-100}" result
  echo "benchmarks: dev: $rounds saves" >&2
  result=$(python3 Benchmarks/dev_latency.py "$FLOWPKG" "$rounds")
  read -r p50 p90 p99 max <<<"$result"
  BENCH_ROWS+=("dev|save-to-first-line p50|$p50|" "dev|save-to-first-line p90|$p90|"
               "dev|save-to-first-line p99|$p99|" "dev|save-to-first-line max|$max|")
  BENCH_NOTES+=("dev: $rounds saves of console-app's start module; goal p50 <= 0.015 s")
}
