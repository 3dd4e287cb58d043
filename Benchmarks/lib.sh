# Shared helpers for Benchmarks/run: timing, the results table, installing tools.
# Sourced, not run. A benchmark file Benchmarks/<name>.sh defines `benchmark_<name>`, which
# builds its workload under $BENCH_WORK and calls `bench_row` once per tool it measures.

BENCH_REPEAT="${BENCH_REPEAT:-3}"   # each command runs this many times; the best time counts
BENCH_ROWS=()                       # "group|label|seconds|reference label" lines

# Installs Debian packages when a command is missing: need_apt COMMAND PACKAGE.
need_apt() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if command -v apt-get >/dev/null 2>&1; then
    local sudo=""
    [[ "$(id -u)" == 0 ]] || sudo="sudo"
    echo "benchmarks: installing $2" >&2
    $sudo apt-get install -y -qq "$2" >/dev/null || echo "benchmarks: could not install $2" >&2
  fi
  command -v "$1" >/dev/null 2>&1
}

# Best wall-clock seconds of BENCH_REPEAT runs of a command (its output discarded).
bench_seconds() {
  local best="" start end elapsed
  for ((i = 0; i < BENCH_REPEAT; i++)); do
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    elapsed=$(echo "$end - $start" | bc -l)
    if [[ -z "$best" ]] || (($(echo "$elapsed < $best" | bc -l))); then best=$elapsed; fi
  done
  printf '%.3f' "$best"
}

# Times a command and records it: bench_row GROUP LABEL REFERENCE_LABEL -- COMMAND...
# The ratio column is this row's time divided by the time of REFERENCE_LABEL in the same group.
bench_row() {
  local group="$1" label="$2" reference="$3"
  shift 4
  echo "benchmarks: $group: $label ..." >&2
  local seconds
  seconds=$(bench_seconds "$@")
  BENCH_ROWS+=("$group|$label|$seconds|$reference")
}

# Prints every recorded row as a Markdown table with ratios against each row's reference.
bench_table() {
  printf '| benchmark | tool | seconds | ratio |\n|---|---|---:|---|\n'
  local row group label seconds reference ref_seconds ratio other
  for row in "${BENCH_ROWS[@]}"; do
    IFS='|' read -r group label seconds reference <<<"$row"
    ratio="—"
    if [[ -n "$reference" && "$reference" != "$label" ]]; then
      for other in "${BENCH_ROWS[@]}"; do
        IFS='|' read -r og ol os _ <<<"$other"
        if [[ "$og" == "$group" && "$ol" == "$reference" ]]; then ref_seconds=$os; fi
      done
      if [[ -n "${ref_seconds:-}" ]] && (($(echo "$ref_seconds > 0" | bc -l))); then
        ratio=$(printf '%.2f× %s' "$(echo "$seconds / $ref_seconds" | bc -l)" "$reference")
      fi
    fi
    printf '| %s | %s | %s | %s |\n' "$group" "$label" "$seconds" "$ratio"
  done
}
