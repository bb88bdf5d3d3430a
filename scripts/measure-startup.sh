#!/usr/bin/env bash
# Measures the daemon's start-up (docs/benchmarks.md, "Start-up"): bin/cri-resmgr in front of the
# simulated runtime, from the launch until the PID file exists (the daemon writes it once the
# relay socket is served), without and with the class data sharing archive of bin/cri-resmgr-cds.
# Prints one line per run: wall milliseconds / the daemon's own "N ms after the JVM started", and
# the CPU time (user + system, all threads, and the main thread's alone) the JVM had used when the
# PID file appeared: on a busy machine the wall times spread widely, the CPU times much less.
#   scripts/measure-startup.sh [RUNS]      (default 5; after ./mvnw -B -DskipTests install)
set -euo pipefail
runs=${1:-5}
top="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d /tmp/cri-resmgr-startup.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
"$top/bin/cri-resmgr" sim-runtime --socket "$work/sim.sock" >"$work/sim.log" 2>&1 &
for _ in $(seq 1 600); do [ -S "$work/sim.sock" ] && break; sleep 0.05; done
printf 'policy: {Active: topology-aware, ReservedResources: {CPU: 750m}}\ninstrumentation: {HTTPEndpoint: "", PrometheusExport: false}\n' >"$work/cfg"
"$top/bin/cri-resmgr-cds" "$work/cri-resmgr.jsa" >/dev/null

start() { # CDS_ARCHIVE
  rm -rf "$work/relay" "$work/pid"
  local t0 t1 p
  t0=$(date +%s%N)
  CDS_ARCHIVE=$1 "$top/bin/cri-resmgr" --allow-untested-runtimes --runtime-socket "$work/sim.sock" \
    --relay-socket "$work/relay.sock" --relay-dir "$work/relay" --pid-file "$work/pid" \
    --force-config "$work/cfg" >"$work/daemon.log" 2>&1 &
  p=$!
  while [ ! -s "$work/pid" ] && kill -0 "$p" 2>/dev/null; do sleep 0.005; done
  t1=$(date +%s%N)
  kill -STOP "$p" 2>/dev/null || true
  cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$p/stat" 2>/dev/null || echo "?")
  # The main thread (the busiest thread named "java"; the launcher's primordial thread is idle).
  main=$(for t in /proc/"$p"/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = java ] && awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "$t/stat"
  done 2>/dev/null | sort -n | tail -n 1)
  kill -CONT "$p" 2>/dev/null || true
  # The daemon logs its figure just after writing the PID file.
  for _ in $(seq 1 200); do grep -q 'ms after the JVM started' "$work/daemon.log" && break; sleep 0.005; done
  kill "$p"; wait "$p" || true
  echo "$(( (t1 - t0) / 1000000 ))/$(grep -o '([0-9]* ms after' "$work/daemon.log" | tr -dc 0-9) (CPU $cpu, main thread ${main:-?})"
}
for i in $(seq 1 "$runs"); do
  echo "run $i: without archive $(start none) ms, with archive $(start "$work/cri-resmgr.jsa") ms"
done
uptime
