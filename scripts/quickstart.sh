#!/usr/bin/env bash
# Quick start: builds cri-resmgr and runs it, as a pure message dumper (policy none), in front of
#   - a private containerd started from Debian's packages (as root; the default when possible), or
#   - the simulated runtime (`cri-resmgr sim-runtime`) where no containerd can run.
# Usage: scripts/quickstart.sh [auto|containerd|sim]     Ctrl-C stops everything it started.
# Environment: QUICKSTART_DIR (default /tmp/cri-resmgr-quickstart), CONFIG (a config file).
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
mode=${1:-auto}
work=${QUICKSTART_DIR:-/tmp/cri-resmgr-quickstart}
config=${CONFIG:-$top/sample-configs/cri-full-message-dump.cfg}
mkdir -p "$work"
cd "$top"

echo "quickstart: building (./mvnw -B -q -DskipTests package)"
./mvnw -B -q -DskipTests package

pids=()
started_containerd=0
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$started_containerd" = 1 ]; then
    E2E_DIR="$work/containerd" "$top/e2e/bed/stop-containerd.sh" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

runtime_socket=""
extra=()
if [ "$mode" != sim ] && [ "$(id -u)" = 0 ]; then
  echo "quickstart: starting a private containerd (e2e/bed/start-containerd.sh)"
  if out=$(E2E_DIR="$work/containerd" "$top/e2e/bed/start-containerd.sh" 2>"$work/containerd-start.err"); then
    started_containerd=1
    runtime_socket=$(printf '%s\n' "$out" | sed -n 's|^CRI_ENDPOINT=unix://||p' | tail -n 1)
  elif [ "$mode" = containerd ]; then
    echo "quickstart: containerd did not start, see $work/containerd-start.err" >&2
    exit 1
  else
    echo "quickstart: containerd did not start ($work/containerd-start.err); using the simulated runtime"
  fi
elif [ "$mode" = containerd ]; then
  echo "quickstart: a private containerd needs root" >&2
  exit 1
fi

if [ -z "$runtime_socket" ]; then
  runtime_socket=$work/sim-runtime.sock
  "$top/bin/cri-resmgr" sim-runtime --socket "$runtime_socket" \
    --images localhost/e2e/busybox:1,localhost/e2e/pause:1 >"$work/sim-runtime.log" 2>&1 &
  pids+=($!)
  extra+=(--allow-untested-runtimes)
fi

cat <<MSG
quickstart: cri-resmgr relays unix://$work/cri-resmgr.sock -> unix://$runtime_socket
  config:    $config
  metrics:   curl -s localhost:8891/metrics | grep ^cri_
  kubelet:   --container-runtime-endpoint=unix://$work/cri-resmgr.sock
  crictl:    crictl --runtime-endpoint unix://$work/cri-resmgr.sock version
MSG
"$top/bin/cri-resmgr" --runtime-socket "$runtime_socket" \
  --relay-socket "$work/cri-resmgr.sock" --relay-dir "$work/state" \
  --pid-file "$work/cri-resmgr.pid" --force-config "$config" "${extra[@]}" &
pids+=($!)
wait "${pids[-1]}"
