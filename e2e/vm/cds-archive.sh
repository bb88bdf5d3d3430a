#!/usr/bin/env bash
# Makes a class data sharing (AppCDS) archive of bin/cri-resmgr for daemons started in the VM bed:
# short runs of the daemon on this host, in front of the runtime socket given (the VM's containerd,
# forwarded), record the classes it loads with the policies the tests use; then the JVM dumps them.
# Under TCG a daemon with the archive serves in about half the time (docs/e2e.md, "The VM bed").
# The archive only speeds up class loading: with a missing or stale one the JVM runs without it.
#   cds-archive.sh RUNTIME_SOCKET OUT_DIR      prints CDS_ARCHIVE=OUT_DIR/cri-resmgr.jsa
set -euo pipefail
[ $# = 2 ] || { echo "usage: cds-archive.sh RUNTIME_SOCKET OUT_DIR" >&2; exit 2; }
sock="$1"; out="$2"
launcher="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/bin/cri-resmgr"
rm -rf "$out" && mkdir -p "$out"
: >"$out/classes.lst"

record() { # name config
  local d="$out/$1"; mkdir -p "$d"; printf '%s\n' "$2" >"$d/cfg"
  JAVA_OPTS="-XX:DumpLoadedClassList=$d/classes.lst" setsid "$launcher" --runtime-socket "$sock" \
    --relay-socket "$d/relay.sock" --relay-dir "$d/relay" --pid-file "$d/pid" \
    --force-config "$d/cfg" >"$d/log" 2>&1 </dev/null &
  local p=$! i
  for i in $(seq 1 1200); do [ -s "$d/pid" ] && break; kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
  [ -s "$d/pid" ] || { echo "cri-resmgr did not serve; its log:" >&2; cat "$d/log" >&2; kill "$p" 2>/dev/null; exit 1; }
  kill "$p"; for i in $(seq 1 400); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
  cat "$d/classes.lst" >>"$out/classes.lst"
}
http='instrumentation: {HTTPEndpoint: "", PrometheusExport: false}'
record topology-aware "policy: {Active: topology-aware, ReservedResources: {CPU: 750m}}
$http"
record balloons "policy: {Active: balloons, ReservedResources: {CPU: 'cpuset:0'}, balloons: {BalloonTypes: [{Name: pinned, MaxCPUs: 1}]}}
$http"
sort -u -o "$out/classes.lst" "$out/classes.lst"
JAVA_OPTS="-Xshare:dump -XX:SharedClassListFile=$out/classes.lst -XX:SharedArchiveFile=$out/cri-resmgr.jsa" \
  "$launcher" >"$out/dump.log" 2>&1 || { echo "dump failed:" >&2; tail -20 "$out/dump.log" >&2; exit 1; }
echo "CDS_ARCHIVE=$out/cri-resmgr.jsa"
