# The app build benchmark: what FlowpkgBuildPlugin adds to an app's build. Two copies of
# Samples/HostApp depend on this checkout by path: one as it is (FlowpkgBuildPlugin exports its
# Lua project), one with the `plugins:` line removed (the same app linking FlowRuntime and the
# rest, without the plugin). Goals (issue 26): a cold build with the plugin <= 1.5 x the one
# without; a rebuild with nothing changed <= 5 s.
# "Cold" is a fresh .build for the app: everything under it is removed but the resolved
# dependency checkouts (fetched once, before timing), so neither row pays for the network and
# both compile flowpkg's same checkout from nothing. Debug builds, as `swift build` does.
# Standalone (needs no release flowpkg):
#   BENCH_WORK=/tmp/w bash -c 'source Benchmarks/lib.sh; source Benchmarks/host_build.sh; benchmark_host_build; bench_measure_all; bench_table'

# Removes everything in $1/.build but the resolved checkouts, then builds (the rest of the
# arguments go to swift build); a failed build leaves a FAILED file beside the app, which
# benchmark_host_build reports.
host_build_cold() {
  local app="$1" item
  shift
  if [[ -d "$app/.build" ]]; then
    for item in "$app/.build/"* "$app/.build/".[!.]*; do
      case "$(basename "$item")" in
      checkouts | repositories | workspace-state.json | artifacts) ;;
      *) rm -rf "$item" ;;
      esac
    done
  fi
  host_build_again "$app" "$@"
  cp "$app.log" "$app.cold.log"
}

# `swift build` in $1, as a developer runs it again; output kept in $1.log.
host_build_again() {
  local app="$1"
  shift
  (cd "$app" && swift build "$@" >"$app.log" 2>&1) || touch "$app.FAILED"
}

benchmark_host_build() {
  local work="$BENCH_WORK/host_build" root app
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  rm -rf "$work"
  mkdir -p "$work"
  for app in plugin no-plugin; do
    cp -R "$root/Samples/HostApp" "$work/$app"
    rm -rf "$work/$app/.build"
    sed -i.bak "s|path: \"../..\"|path: \"$root\"|" "$work/$app/Package.swift"
  done
  sed -i.bak '/plugins: \[.plugin(name: "FlowpkgBuildPlugin"/d' "$work/no-plugin/Package.swift"
  grep -q FlowpkgBuildPlugin "$work/plugin/Package.swift" && ! grep -q "plugins:" "$work/no-plugin/Package.swift" \
    || { echo "benchmarks: host_build: could not make the two apps" >&2; return 1; }
  for app in plugin no-plugin; do
    (cd "$work/$app" && swift package resolve >/dev/null 2>&1) \
      || { echo "benchmarks: host_build: swift package resolve failed in $app" >&2; return 1; }
  done
  bench_row host_build "cold, FlowRuntime without the plugin" "" -- host_build_cold "$work/no-plugin"
  bench_row host_build "cold, with FlowpkgBuildPlugin" "cold, FlowRuntime without the plugin" -- host_build_cold "$work/plugin"
  bench_row host_build "rebuild with nothing changed (plugin)" "" -- host_build_again "$work/plugin"
  # The floor: the plugin's tool alone, cold (FlowpkgBuildTool and what it links: the Lua
  # parser, the analysis, the project model and the package writer). A plugin that validates
  # must compile at least that for the build machine, whatever the app is.
  bench_row host_build "floor: cold, the plugin's tool alone" "cold, FlowRuntime without the plugin" -- \
    host_build_cold "$work/no-plugin" --target FlowpkgBuildTool
  bench_measure host_build
  local failed
  for app in plugin no-plugin; do
    if [[ -e "$work/$app.FAILED" ]]; then
      failed=1
      echo "benchmarks: host_build: a build of $app failed:" >&2
      tail -20 "$work/$app.log" >&2
    fi
  done
  [[ -z "${failed:-}" ]] || return 1
  BENCH_NOTES+=("host_build: Samples/HostApp built cold (fresh .build, checkouts kept) with and without FlowpkgBuildPlugin, and rebuilt with nothing changed; debug builds")
  BENCH_NOTES+=("host_build: error/warning lines in the cold plugin build's log: $(grep -cE 'error:|warning:' "$work/plugin.cold.log" || true)")
}
