#!/usr/bin/env bash
# The README's "A walk-through" block (new, dev, validate, run, export, run --trace), run exactly as
# written: the lines between "README begin" and "README end" are the README's block, character
# for character (WalkthroughTests checks both). Then checks what the walk-through
# promises. Needs flowpkg on PATH. Works in a new temp folder.
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "walkthrough: FAIL: $*" >&2; echo "--- its output" >&2; cat "$work/log" >&2; exit 1; }

# `flowpkg dev` runs until Ctrl-C. Here it runs in the background while the script saves the
# resource the template says to edit and waits for the program to draw it, then gets the SIGINT
# a terminal's Ctrl-C sends, and must exit 130.
devlog="$work/dev.log"
shows() { for _ in $(seq 400); do grep -q "$1" "$devlog" && return 0; kill -0 "$dev" 2>/dev/null || break; sleep 0.05; done; grep -q "$1" "$devlog"; }
flowpkg() {
  [[ "$1" == dev ]] || { command flowpkg "$@"; return; }
  command flowpkg "$@" >"$devlog" 2>&1 & dev=$!
  shows "Session page: http://127.0.0.1:[0-9]*/session?token=" || fail "dev printed no session page URL: $(cat "$devlog")"
  shows "| Hello from Hello! " || fail "dev did not run the program: $(cat "$devlog")"
  cp Hello/Resources/motd.txt "$work/motd.txt"
  echo "Saved while running." >>Hello/Resources/motd.txt
  shows "| Saved while running. " || fail "saving motd.txt changed nothing on screen: $(cat "$devlog")"
  cp "$work/motd.txt" Hello/Resources/motd.txt
  kill -INT "$dev"
  local status=0
  wait "$dev" || status=$?
  [[ "$status" == 130 ]] || fail "Ctrl-C ended dev with $status, not 130: $(cat "$devlog")"
}

walkthrough() {
# README begin
flowpkg new Hello --template console-app     # a project: flowpkg.json, Sources/, Resources/
flowpkg dev Hello                            # run it live: save a module or Resources/motd.txt and see it; Ctrl-C ends
flowpkg validate Hello                       # every problem at once, file:line:col
flowpkg run Hello                            # run it from the folder
flowpkg export Hello -o Hello.luapkg         # the package an app ships
flowpkg run Hello.luapkg --trace             # run the package, showing where each module came from
# README end
}

walkthrough >"$work/log" 2>&1 || fail "a step failed"
[[ -f Hello/flowpkg.json && -f Hello/Sources/Main.lua && -f Hello/Resources/motd.txt ]] || fail "new made no project"
grep -q "Hello from Hello!" "$work/log" || fail "run printed no greeting"
[[ "$(grep -c "Hello from Hello!" "$work/log")" == 2 ]] || fail "the folder and the package did not both run"
[[ "$(unzip -Z1 Hello.luapkg | sed -n 1p)" == manifest.json ]] || fail "Hello.luapkg does not start with manifest.json"
grep -q "^trace: module Main <- package .*Hello.luapkg" "$work/log" || fail "no trace line for Main"
grep -q "^trace: module Banner <- package .*Hello.luapkg" "$work/log" || fail "no trace line for Banner"
grep -q "^trace: resource motd.txt <- package .*Hello.luapkg" "$work/log" || fail "no trace line for motd.txt"
echo "walkthrough: ok"
