# The types benchmark (issue 47): validate with types against `validate --no-types` on the
# validate benchmark's 21-copy tree (about 2,100 files; goal <= 1.3x), member completion's
# latency in that tree (goal p95 <= 20 ms), and validate's peak memory with a 10,000-class
# definition file beside a small project.

source Benchmarks/validate.sh

types_classes_project() {
  local project="$BENCH_WORK/types-classes"
  if [[ ! -f "$project/flowpkg.json" ]]; then
    mkdir -p "$project/Sources"
    echo '{"name": "Classes", "identifier": "com.example.classes", "version": "1.0.0", "startModule": "Main"}' \
      >"$project/flowpkg.json"
    {
      echo "---@meta"
      for ((i = 0; i < 10000; i++)); do
        printf -- "---@class Class%d: Class%d\n---@field name string\n---@field count integer\n---@field next? Class%d\n\n" \
          "$i" $(((i + 1) % 10000)) "$i"
      done
    } >"$project/Sources/Definitions.lua"
    printf -- '---@type Class1\nlocal c = nil\nprint(c)\n' >"$project/Sources/Main.lua"
  fi
  echo "$project"
}

benchmark_types() {
  need_apt lua5.4 lua5.4 || { echo "benchmarks: lua5.4 is needed" >&2; return 1; }
  validate_workload validate-21 21
  local project="$BENCH_WORK/validate-21"
  BENCH_NOTES+=("types: flowpkg says: $({ "$FLOWPKG" validate "$project" || true; } | tail -n 1)")
  bench_row types "flowpkg validate" "flowpkg validate --no-types" -- "$FLOWPKG" validate "$project"
  bench_row types "flowpkg validate --no-types" "flowpkg validate" -- "$FLOWPKG" validate --no-types "$project"
  bench_measure types

  local rounds="${BENCH_TYPES_ROUNDS:-100}" result
  result=$(python3 Benchmarks/types_completion.py "$FLOWPKG" "$project" "$project/Sources/copy7/pl/stringx.lua" \
    utils "$rounds")
  read -r p50 p95 max items <<<"$result"
  BENCH_ROWS+=("types|completion utils. p50|$p50|" "types|completion utils. p95|$p95|" "types|completion utils. max|$max|")
  BENCH_NOTES+=("types: completion of 'utils.' ($items items) in pl/stringx.lua of the 21-copy tree, $rounds requests; goal p95 <= 0.020 s")

  local classes
  classes=$(types_classes_project)
  local peak
  peak=$( { /usr/bin/time -f "%M" "$FLOWPKG" validate "$classes" >/dev/null; } 2>&1 | tail -n 1)
  BENCH_NOTES+=("types: validate of a project with a 10,000-class definition file: peak RSS ${peak} KB")
}
