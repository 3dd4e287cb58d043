# The editor benchmark: edit-to-diagnostics latency of `flowpkg lsp`, from an incremental
# didChange written to the publishDiagnostics for that version read, in a generated
# 2,000-module project (each module requires the previous one and reads its global).
# Goal (issue 23): p50 < 30 ms, p99 < 100 ms.

benchmark_lsp() {
  need_apt python3 python3 || { echo "benchmarks: python3 is needed" >&2; return 1; }
  local rounds="${BENCH_LSP_ROUNDS:-200}" result
  echo "benchmarks: lsp: $rounds edits in a 2,000-module project" >&2
  result=$(python3 Benchmarks/lsp_latency.py "$FLOWPKG" "$rounds" 2000)
  read -r p50 p90 p99 max <<<"$result"
  BENCH_ROWS+=("lsp|edit-to-diagnostics p50|$p50|" "lsp|edit-to-diagnostics p90|$p90|"
               "lsp|edit-to-diagnostics p99|$p99|" "lsp|edit-to-diagnostics max|$max|")
  BENCH_NOTES+=("lsp: $rounds edits of one module of 2,000; goal p50 < 0.030 s, p99 < 0.100 s")
}
