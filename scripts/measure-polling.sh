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
# CDS_ARCHIVE=none runs it without the archive. RELAY=bare measures the floor instead of the
# daemon: BareRelayMain (module benchmarks), the daemon's raw relay alone with the launcher's JVM
# flags, relaying every call as bytes. After the report, the CPU of each thread over the polling
# window, in clock ticks (utime + stime of /proc/PID/task/*/stat between the driver's "polling
# for" and "quiet for").
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d /tmp/cri-resmgr-polling.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
"$top/bin/cri-resmgr" sim-runtime --socket "$work/sim.sock" --images busybox >"$work/sim.log" 2>&1 &
for _ in $(seq 1 600); do [ -S "$work/sim.sock" ] && break; sleep 0.05; done
printf 'policy: {Active: topology-aware, ReservedResources: {CPU: 750m}}\ninstrumentation: {HTTPEndpoint: "", PrometheusExport: false}\n' >"$work/cfg"
archive=${CDS_ARCHIVE:-$work/cri-resmgr.jsa}
[ "$archive" = none ] || "$top/bin/cri-resmgr-cds" "$archive" >/dev/null
if [ "${RELAY:-daemon}" = bare ]; then
  # shellcheck source=bin/cri-resmgr-launch.sh
  (CDS_ARCHIVE=none; . "$top/bin/cri-resmgr-launch.sh"
    launch benchmarks io.criresmgr.benchmarks.BareRelayMain "$work/relay.sock" "$work/sim.sock") \
    >"$work/daemon.log" 2>&1 &
  daemon=$!
  ready="$work/relay.sock"
else
  CDS_ARCHIVE=$archive "$top/bin/cri-resmgr" --allow-untested-runtimes \
    --runtime-socket "$work/sim.sock" --relay-socket "$work/relay.sock" --relay-dir "$work/relay" \
    --pid-file "$work/pid" --config-socket disabled --force-config "$work/cfg" >"$work/daemon.log" 2>&1 &
  daemon=$!
  ready="$work/pid"
fi
while [ ! -s "$ready" ] && [ ! -S "$ready" ]; do
  kill -0 "$daemon" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
  sleep 0.05
done
echo "daemon pid $daemon (${RELAY:-daemon}); $(uptime)"
# Each thread's name and utime + stime, in clock ticks.
threads() {
  for f in /proc/"$daemon"/task/*/stat; do
    sed -E 's/^[0-9]+ \((.*)\) [A-Za-z] (([^ ]+ ){10})([0-9]+) ([0-9]+) .*/\1 \4 \5/' "$f" 2>/dev/null \
      | awk '{ t = $(NF-1) + $NF; NF -= 2; print $0 "\t" t }'
  done
}
java -cp "$(ls "$top"/benchmarks/target/cri-resmgr-benchmarks-*.jar | grep -v tests | head -n 1):$top/benchmarks/target/lib/*" \
  io.criresmgr.benchmarks.PollingLoadMain --socket "$work/relay.sock" --pid "$daemon" "$@" \
  | while IFS= read -r line; do
      echo "$line"
      case $line in
        "polling for"*) threads >"$work/threads.start" ;;
        "quiet for"*) threads >"$work/threads.end" ;;
      esac
    done \
  || { tail -n 40 "$work/daemon.log" >&2; exit 1; }
echo "$(uptime)"
echo "CPU while polling by thread (ticks; names without trailing numbers):"
awk -F'\t' 'NR == FNR { was[$1] += $2; next } { now[$1] += $2 }
  END { for (n in now) { d = now[n] - was[n]; g = n; sub(/(-[0-9]+)+$/, "", g); sum[g] += d }
        for (g in sum) if (sum[g] > 0) printf "  %5d  %s\n", sum[g], g }' \
  "$work/threads.start" "$work/threads.end" | sort -nr
if command -v jcmd >/dev/null; then jcmd "$daemon" GC.heap_info | tail -n +2; fi
echo "daemon log: $(wc -l <"$work/daemon.log") lines, $(grep -c ' WARN ' "$work/daemon.log" || true) warnings"
