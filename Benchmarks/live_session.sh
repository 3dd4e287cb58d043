# The live session's way back (issue 22): a line printed by a program under
# `flowpkg run --live --watch` until `flowpkg serve` prints it, and what a live session costs a
# program printing about 10,000 lines a second (each line after a fixed amount of Lua work).
# Goals: p50 < 20 ms; less than 10% slower with the session than without.

benchmark_live_session() {
  need_apt python3 python3 || { echo "benchmarks: python3 is needed" >&2; return 1; }
  local rounds="${BENCH_LIVE_ROUNDS:-100}" repeats="${BENCH_REPEAT:-5}" result
  echo "benchmarks: live_session: $rounds printed lines, $repeats runs of each program" >&2
  result=$(python3 Benchmarks/live_session.py "$FLOWPKG" "$rounds" "$repeats")
  read -r p50 p90 p99 max base live base_cpu live_cpu tight_base tight_live rate <<<"$result"
  BENCH_ROWS+=("live_session|print-to-serve p50|$p50|" "live_session|print-to-serve p90|$p90|"
               "live_session|print-to-serve p99|$p99|" "live_session|print-to-serve max|$max|"
               "live_session|~10,000 lines/s, no session (wall)|$base|"
               "live_session|~10,000 lines/s, live session (wall)|$live|"
               "live_session|~10,000 lines/s, no session (CPU)|$base_cpu|"
               "live_session|~10,000 lines/s, live session (CPU)|$live_cpu|"
               "live_session|100,000 prints in a loop, no session|$tight_base|"
               "live_session|100,000 prints in a loop, live session|$tight_live|")
  BENCH_NOTES+=("live_session: $rounds printed lines; the paced program prints 20,000 lines at $rate lines/s alone; goal p50 < 0.020 s, live/no-session wall < 1.10")
}
