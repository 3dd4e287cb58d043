# Shared helpers for Benchmarks/run: timing, the results table, installing tools.
# Sourced, not run. A benchmark file Benchmarks/<name>.sh defines `benchmark_<name>`, which
# builds its workload under $BENCH_WORK and declares one `bench_row` per tool it compares; the
# rows are timed by `bench_measure GROUP` (or, for whatever is left, by `run` afterwards).
#
# The rows of a group are timed in interleaved rounds (A B C, A B C, ...), so a machine busy
# with other work slows every tool alike; each row keeps its best time.

BENCH_REPEAT="${BENCH_REPEAT:-5}"   # rounds per group
BENCH_ROWS=()                       # "group|label|seconds|reference label" lines, measured
BENCH_PENDING=()                    # "group|label|reference|quoted command" lines, to measure
BENCH_NOTES=()                      # free lines printed above the table
BENCH_TABLES=()                     # whole Markdown tables a benchmark made itself, printed below it

# Installs a Debian package when a command is missing: need_apt COMMAND PACKAGE.
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

# The CPU seconds (user + system, this shell and its finished children) in `times` output,
# read from a file: `times` must run in the shell that waited for the children, not in a $(...).
bench_cpu_sum() {
  local total=0 field minutes seconds
  for field in $(cat "$1"); do
    minutes=${field%%m*}
    seconds=${field#*m}
    seconds=${seconds%s}
    total=$(echo "$total + $minutes * 60 + $seconds" | bc -l)
  done
  echo "$total"
}

# "WALL CPU" seconds of one run of a command (its output and exit status discarded). CPU is
# user + system time of everything it ran, which other work on the machine barely changes.
# The clock is bash's own $EPOCHREALTIME (microseconds), read right around the command: a
# `date` process on either side would add its own start-up, about a millisecond, to every row.
bench_once() {
  local start end before after
  before=$(mktemp) after=$(mktemp)
  times >"$before"
  start=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  end=$EPOCHREALTIME
  times >"$after"
  echo "$(echo "$end - $start" | bc -l) $(echo "$(bench_cpu_sum "$after") - $(bench_cpu_sum "$before")" | bc -l)"
  rm -f "$before" "$after"
}

# Declares a row: bench_row GROUP LABEL REFERENCE_LABEL -- COMMAND...
# Its ratio is its time divided by REFERENCE_LABEL's in the same group.
bench_row() {
  local group="$1" label="$2" reference="$3"
  shift 4
  BENCH_PENDING+=("$group|$label|$reference|$(printf '%q ' "$@")")
}

# Times every declared row of GROUP in BENCH_REPEAT interleaved rounds and records the best.
bench_measure() {
  local group="$1" row g label reference command elapsed
  local -a labels=() references=() commands=() best=()
  for row in "${BENCH_PENDING[@]}"; do
    IFS='|' read -r g label reference command <<<"$row"
    [[ "$g" == "$group" ]] || continue
    labels+=("$label"); references+=("$reference"); commands+=("$command"); best+=("")
  done
  local -a cpu=()
  for i in "${!labels[@]}"; do cpu+=(""); done
  local measured wall used
  for ((round = 1; round <= BENCH_REPEAT; round++)); do
    echo "benchmarks: $group: round $round of $BENCH_REPEAT" >&2
    for i in "${!labels[@]}"; do
      # A tool taking over 10 s is timed once: more rounds would not change its ratio's story.
      if [[ -n "${best[$i]}" ]] && (($(echo "${best[$i]} > 10" | bc -l))); then continue; fi
      measured=$(eval "bench_once ${commands[$i]}")
      wall=${measured% *}
      used=${measured#* }
      if [[ -z "${best[$i]}" ]] || (($(echo "$wall < ${best[$i]}" | bc -l))); then best[$i]=$wall; fi
      if [[ -z "${cpu[$i]}" ]] || (($(echo "$used < ${cpu[$i]}" | bc -l))); then cpu[$i]=$used; fi
    done
  done
  for i in "${!labels[@]}"; do
    BENCH_ROWS+=("$group|${labels[$i]}|$(printf '%.6f' "${best[$i]}")|${references[$i]}|$(printf '%.3f' "${cpu[$i]}")")
  done
  local -a rest=()
  for row in "${BENCH_PENDING[@]}"; do
    [[ "${row%%|*}" == "$group" ]] || rest+=("$row")
  done
  BENCH_PENDING=("${rest[@]}")
}

# Measures every group that still has declared rows (Benchmarks/run calls it after each
# benchmark, so a benchmark need not call bench_measure itself).
bench_measure_all() {
  while ((${#BENCH_PENDING[@]} > 0)); do
    bench_measure "${BENCH_PENDING[0]%%|*}"
  done
}

# Prints every measured row as a Markdown table: best wall-clock and CPU seconds, and both
# ratios against the row's reference.
bench_table() {
  printf '| benchmark | tool | seconds | ratio | CPU seconds | CPU ratio |\n|---|---|---:|---|---:|---|\n'
  local row other group label seconds reference cpu og ol os oc ref_seconds ref_cpu ratio cpu_ratio
  for row in "${BENCH_ROWS[@]}"; do
    IFS='|' read -r group label seconds reference cpu <<<"$row"
    ratio="—"
    cpu_ratio="—"
    ref_seconds=""
    ref_cpu=""
    if [[ -n "$reference" && "$reference" != "$label" ]]; then
      for other in "${BENCH_ROWS[@]}"; do
        IFS='|' read -r og ol os _ oc <<<"$other"
        if [[ "$og" == "$group" && "$ol" == "$reference" ]]; then ref_seconds=$os; ref_cpu=$oc; fi
      done
      if [[ -n "$ref_seconds" ]] && (($(echo "$ref_seconds > 0" | bc -l))); then
        ratio=$(printf '%.2f× %s' "$(echo "$seconds / $ref_seconds" | bc -l)" "$reference")
      fi
      if [[ -n "$ref_cpu" && -n "$cpu" ]] && (($(echo "$ref_cpu > 0" | bc -l))); then
        cpu_ratio=$(printf '%.2f×' "$(echo "$cpu / $ref_cpu" | bc -l)")
      fi
    fi
    # Four decimals (a tenth of a millisecond) below a second, three above; ratios come from
    # the unrounded times.
    if (($(echo "$seconds < 1" | bc -l))); then seconds=$(printf '%.4f' "$seconds"); else seconds=$(printf '%.3f' "$seconds"); fi
    printf '| %s | %s | %s | %s | %s | %s |\n' "$group" "$label" "$seconds" "$ratio" "${cpu:-—}" "$cpu_ratio"
  done
}

# The part of Debian's /usr/share/lua/5.1 the run and export workloads copy: 105 Lua files
# (penlight, json, dkjson, inspect, luassert, cliargs and a few single files), so a workload
# stays the same however many more Lua packages the machine has installed since (the C
# modules they load are declared externalModules).
BENCH_LUA_TREE=(pl json json.lua dkjson.lua inspect.lua argparse.lua inifile.lua mediator.lua luassert say cliargs cliargs.lua)

# Copies the BENCH_LUA_TREE part of Debian's Lua tree into folder $1.
bench_copy_lua_tree() {
  local item
  for item in "${BENCH_LUA_TREE[@]}"; do
    [[ -e "/usr/share/lua/5.1/$item" ]] && cp -R "/usr/share/lua/5.1/$item" "$1/"
  done
}
