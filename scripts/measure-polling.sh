#!/usr/bin/env bash
# Measures the daemon under kubelet's steady load (docs/benchmarks.md, "Kubelet-like polling"):
# bin/cri-resmgr (policy topology-aware, with the class data sharing archive, as installed) in
# front of the simulated runtime, driven by PollingLoadMain (module benchmarks) through the relay
# socket: it creates the pods and containers, polls like kubelet once a second, and prints the
# daemon's CPU time (utime + stime of /proc/PID/stat) over the polling window and over a quiet
# period, and its resident memory (/proc/PID/status) after the creates, the polling and the quiet
# period. The options go to PollingLoadMain:
#   scripts/measure-polling.sh [--pods 110] [--containers 500] [--warmup 30] [--seconds 60]
#     [--quiet 30] [--stats list|each]
# after ./mvnw -B -DskipTests install. JAVA_OPTS reaches the daemon (e.g. a profiler agent);
# CDS_ARCHIVE=none runs it without the archive.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d /tmp/cri-resmgr-polling.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
"$top/bin/cri-resmgr" sim-runtime --socket "$work/sim.sock" --images busybox >"$work/sim.log" 2>&1 &
for _ in $(seq 1 600); do [ -S "$work/sim.sock" ] && break; sleep 0.05; done
printf 'policy: {Active: topology-aware, ReservedResources: {CPU: 750m}}\ninstrumentation: {HTTPEndpoint: "", PrometheusExport: false}\n' >"$work/cfg"
archive=${CDS_ARCHIVE:-$work/cri-resmgr.jsa}
[ "$archive" = none ] || "$top/bin/cri-resmgr-cds" "$archive" >/dev/null
CDS_ARCHIVE=$archive "$top/bin/cri-resmgr" --allow-untested-runtimes \
  --runtime-socket "$work/sim.sock" --relay-socket "$work/relay.sock" --relay-dir "$work/relay" \
  --pid-file "$work/pid" --config-socket disabled --force-config "$work/cfg" >"$work/daemon.log" 2>&1 &
daemon=$!
while [ ! -s "$work/pid" ]; do
  kill -0 "$daemon" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
  sleep 0.05
done
echo "daemon pid $daemon; $(uptime)"
java -cp "$(ls "$top"/benchmarks/target/cri-resmgr-benchmarks-*.jar | grep -v tests | head -n 1):$top/benchmarks/target/lib/*" \
  io.criresmgr.benchmarks.PollingLoadMain --socket "$work/relay.sock" --pid "$daemon" "$@" \
  || { tail -n 40 "$work/daemon.log" >&2; exit 1; }
echo "$(uptime)"
if command -v jcmd >/dev/null; then jcmd "$daemon" GC.heap_info | tail -n +2; fi
echo "daemon log: $(wc -l <"$work/daemon.log") lines, $(grep -c ' WARN ' "$work/daemon.log" || true) warnings"
