# The debugger's cost (issue 35): a loop-bound and a call-bound program run by plain
# `flowpkg run`, launched under `flowpkg dap` with no breakpoint, and with a breakpoint in a
# function never called; then the latencies an editor feels: a breakpoint hit, a step and a
# pause in a tight loop, each until the `stopped` event reaches the client.
# Goals: no breakpoint <= 1.03x; breakpoint never hit <= 1.10x loop-bound, <= 3x call-bound;
# hit and step p95 <= 10 ms; pause <= 50 ms.

benchmark_dap() {
  need_apt python3 python3 || { echo "benchmarks: python3 is needed" >&2; return 1; }
  local rounds="${BENCH_DAP_ROUNDS:-3}" rows row
  echo "benchmarks: dap: $rounds rounds of each program, then 100 stops of each kind" >&2
  rows=$(python3 Benchmarks/dap_bench.py "$FLOWPKG" "$BENCH_WORK/dap" "$rounds") || return 1
  while IFS= read -r row; do BENCH_ROWS+=("$row"); done <<<"$rows"
  BENCH_NOTES+=("dap: best of $rounds runs a row; latencies over 100 stops (p95), pause over 20")
}
