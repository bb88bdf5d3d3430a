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
# window and over the quiet period, in milliseconds, and how often it was scheduled (the run time
# and run count of /proc/PID/task/*/schedstat, taken when the driver prints "polling for" and
# "quiet for" and when it ends): an idle thread that wakes up often shows there.
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
# Each thread's name, CPU time (ns) and how often it was scheduled.
threads() {
  for d in /proc/"$daemon"/task/*; do
    { read -r name <"$d/comm" && read -r ns _ runs <"$d/schedstat"; } 2>/dev/null || continue
    printf '%s\t%s\t%s\n' "$name" "$ns" "$runs"
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
threads >"$work/threads.quiet"
echo "$(uptime)"
echo "CPU by thread in ms, and times scheduled: polling window, quiet period (names without trailing numbers):"
awk -F'\t' 'FILENAME ~ /start$/ { a[$1] += $2; ar[$1] += $3; next }
  FILENAME ~ /end$/ { b[$1] += $2; br[$1] += $3; next } { c[$1] += $2; cr[$1] += $3 }
  END { for (n in b) { g = n; sub(/(-[0-9]+)+$/, "", g)
          p[g] += b[n] - a[n]; pr[g] += br[n] - ar[n]; if (n in c) { q[g] += c[n] - b[n]; qr[g] += cr[n] - br[n] } }
        for (g in p) if (p[g] > 0 || q[g] > 0)
          printf "  %9.1f %6d  %9.1f %6d  %s\n", p[g] / 1e6, pr[g], q[g] / 1e6, qr[g], g }' \
  "$work/threads.start" "$work/threads.end" "$work/threads.quiet" | sort -nr
if command -v jcmd >/dev/null; then jcmd "$daemon" GC.heap_info | tail -n +2; fi
echo "daemon log: $(wc -l <"$work/daemon.log") lines, $(grep -c ' WARN ' "$work/daemon.log" || true) warnings"
