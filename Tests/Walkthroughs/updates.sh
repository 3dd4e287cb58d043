#!/usr/bin/env bash
# The walk-through of the "Taking signed updates" article
# (Sources/FlowUpdates/FlowUpdates.docc/TakingSignedUpdates.md), run exactly as written: the lines
# between "README begin" and "README end" are the article's block, character for character
# (WalkthroughTests checks both). Then checks what the walk-through promises. Needs flowpkg
# and python3 on PATH; PORT picks the feed's port (default 8000). Works in a new temp folder.
set -euo pipefail
work="$(mktemp -d)"
# SIGKILL: a process started from a test's thread may have SIGTERM blocked, and the block's
# `kill` would not end its server.
# The checks' verdict is the script's status: under `set -e` a failing kill here (the block's own
# `kill` has often ended the server already) would turn "walkthrough: ok" into exit status 1.
cleanup() {
    if [[ -n "${server:-}" ]]; then kill -KILL "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
# The update store (default ~/.cache/flowpkg/updates) of this run only.
export XDG_CACHE_HOME="$work/cache"
fail() { echo "walkthrough: FAIL: $*" >&2; echo "--- its output" >&2; cat "$work/log" >&2; exit 1; }

walkthrough() {
# README begin
flowpkg new App --identifier com.example.app            # a console app
flowpkg keygen release                                  # release.key (private, mode 0600) + release.pub
flowpkg export App -o App-1.0.0.luapkg --package-version 1.0.0   # the package the app ships with
flowpkg export App -o App-1.1.0.luapkg --package-version 1.1.0 --sign release.key   # the update
flowpkg verify App-1.1.0.luapkg --trusted-key release.pub
flowpkg publish App-1.1.0.luapkg --to feed --sign release.key   # upload feed/ to any static host
python3 -m http.server "${PORT:-8000}" --bind 127.0.0.1 --directory feed & server=$!
until (exec 3<>"/dev/tcp/127.0.0.1/${PORT:-8000}") 2>/dev/null; do sleep 0.1; done   # until it listens
flowpkg run App-1.0.0.luapkg --updates "http://127.0.0.1:${PORT:-8000}" --trusted-key release.pub --apply-now --trace
flowpkg publish --rollback --identifier com.example.app --to feed --sign release.key
flowpkg run App-1.0.0.luapkg --updates "http://127.0.0.1:${PORT:-8000}" --trusted-key release.pub --apply-now
kill $server
# README end
}

walkthrough >"$work/log" 2>&1 || fail "a step failed"
version() { flowpkg inspect "$1" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])'; }
[[ "$(version App-1.0.0.luapkg)" == 1.0.0 ]] || fail "App-1.0.0.luapkg holds version $(version App-1.0.0.luapkg)"
[[ "$(version App-1.1.0.luapkg)" == 1.1.0 ]] || fail "App-1.1.0.luapkg holds version $(version App-1.1.0.luapkg)"
grep -q "update: update 1.1.0 (.*) downloaded and verified" "$work/log" || fail "the update was not downloaded"
grep -q "update: running update 1.1.0 (" "$work/log" || fail "the first run did not run the update"
grep -q "trace: module Main <- update " "$work/log" || fail "the trace does not name the update"
grep -q "published a rollback for com.example.app on channel production" "$work/log" || fail "no rollback"
grep -q "update: the update feed rolled back to the embedded package" "$work/log" || fail "the rollback was not taken"
grep -q "update: running the embedded package 1.0.0" "$work/log" || fail "the embedded package did not run after the rollback"
echo "walkthrough: ok"
