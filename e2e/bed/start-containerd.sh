#!/usr/bin/env bash
# Starts a private containerd (Debian's containerd 1.6 + runc) with the CRI plugin, offline:
# the sandbox (pause) and busybox images are built locally and imported, pods use the host
# network. Everything lives under $E2E_DIR; a containerd started by the system is never touched.
#
# Idempotent: when the containerd recorded in the PID file is alive and answering, it only
# prints the connection details again (with E2E_ALREADY_RUNNING=1).
#
# Environment (optional):
#   E2E_DIR          work directory (default /tmp/cri-resmgr-e2e; keep it short: unix socket
#                    paths must stay below 108 bytes, ours below 100)
#   E2E_SNAPSHOTTER  overlayfs | native | auto (default auto: overlayfs, else native)
# Prints (stdout, KEY=VALUE lines): CONTAINERD_SOCKET, CONTAINERD_PID_FILE, CONTAINERD_PID,
#   CONTAINERD_LOG, SNAPSHOTTER, E2E_ALREADY_RUNNING, CRI_ENDPOINT=unix://...
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
E2E_DIR="${E2E_DIR:-/tmp/cri-resmgr-e2e}"
SNAP="${E2E_SNAPSHOTTER:-auto}"
SOCK="$E2E_DIR/containerd.sock"
PIDF="$E2E_DIR/containerd.pid"
LOG="$E2E_DIR/containerd.log"
IMAGES="$E2E_DIR/images.tar"

log() { echo "[start-containerd] $*" >&2; }
die() { echo "[start-containerd] ERROR: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (containerd and runc need it)"
[ "${#SOCK}" -lt 100 ] || die "socket path too long (${#SOCK} bytes): $SOCK; use a shorter E2E_DIR"

pid_alive() { # pidfile expected-comm
  local p
  [ -s "$1" ] || return 1
  p="$(cat "$1")"
  [ -d "/proc/$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ]
}
answering() { ctr -a "$SOCK" version >/dev/null 2>&1; }

print_info() { # already-running flag
  echo "CONTAINERD_SOCKET=$SOCK"
  echo "CONTAINERD_PID_FILE=$PIDF"
  echo "CONTAINERD_PID=$(cat "$PIDF")"
  echo "CONTAINERD_LOG=$LOG"
  echo "SNAPSHOTTER=$(cat "$E2E_DIR/snapshotter" 2>/dev/null || echo unknown)"
  echo "E2E_ALREADY_RUNNING=$1"
  echo "CRI_ENDPOINT=unix://$SOCK"
}

if command -v ctr >/dev/null 2>&1 && pid_alive "$PIDF" containerd && answering; then
  log "already running"
  print_info 1
  exit 0
fi

install_packages() {
  local need=() p
  for p in containerd runc gcc libc6-dev python3; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
  # either busybox package will do (they conflict); the dynamic one is preferred
  dpkg -s busybox >/dev/null 2>&1 || dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox)
  [ "${#need[@]}" -eq 0 ] && return 0
  log "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

build_images() {
  local busybox stale=0 f
  busybox="$(readlink -f "$(command -v busybox)")"
  for f in mk-oci-images.py pause.c; do
    [ "$HERE/$f" -nt "$IMAGES" ] && stale=1
  done
  [ "$(cat "$E2E_DIR/build/busybox-used" 2>/dev/null)" = "$busybox" ] || stale=1
  [ -s "$IMAGES" ] && [ "$stale" = 0 ] && return 0
  log "building images from $busybox"
  gcc -O2 -static -s -o "$E2E_DIR/build/pause" "$HERE/pause.c"
  python3 "$HERE/mk-oci-images.py" "$IMAGES" --pause "$E2E_DIR/build/pause" --busybox "$busybox"
  echo "$busybox" >"$E2E_DIR/build/busybox-used"
}

write_config() { # snapshotter
  cat >"$E2E_DIR/containerd.toml" <<EOF
version = 2
root = "$E2E_DIR/root"
state = "$E2E_DIR/state"
oom_score = 0
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]

[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[debug]
  address = ""
  level = "info"
[metrics]
  address = ""

[plugins."io.containerd.internal.v1.opt"]
  path = "$E2E_DIR/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "localhost/e2e/pause:1"
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  enable_selinux = false
  disable_apparmor = true
  # root here lacks CAP_SYS_RESOURCE: runc cannot lower oom_score_adj (-998 for sandboxes)
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "$1"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        Root = "$E2E_DIR/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    # no network config: only host-network pods are used
    bin_dir = "$E2E_DIR/cni/bin"
    conf_dir = "$E2E_DIR/cni/net.d"
EOF
}

start_containerd() {
  local t0 i pid
  t0=$(date +%s%N)
  rm -f "$SOCK" "$SOCK.ttrpc"
  # a simple backgrounded command: $! is containerd itself (setsid does not fork here)
  setsid containerd --config "$E2E_DIR/containerd.toml" >>"$LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDF"
  for i in $(seq 1 200); do
    answering && break
    # liveness of our child, not its name: until it has exec'd, it is still the shell or setsid
    kill -0 "$pid" 2>/dev/null || die "containerd exited, see $LOG"
    sleep 0.05
  done
  answering || die "containerd not answering on $SOCK after 10 s, see $LOG"
  log "containerd pid $(cat "$PIDF") ready in $((($(date +%s%N) - t0) / 1000000)) ms"
}

stop_ours() {
  local p i
  p="$(cat "$PIDF")"
  kill "$p" 2>/dev/null || true
  for i in $(seq 1 100); do [ -d "/proc/$p" ] || break; sleep 0.1; done
}

overlay_ok() {
  ctr -a "$SOCK" plugins ls 2>/dev/null | grep -qE 'snapshotter\.v1 +overlayfs +\S+ +ok'
}

install_packages
mkdir -p "$E2E_DIR"/{build,root,state,opt,runc,cni/bin,cni/net.d}
build_images
: >"$LOG"
case "$SNAP" in
  auto | overlayfs) try=overlayfs ;;
  native) try=native ;;
  *) die "bad E2E_SNAPSHOTTER=$SNAP" ;;
esac
write_config "$try"
start_containerd
if [ "$try" = overlayfs ] && ! overlay_ok; then
  [ "$SNAP" = overlayfs ] && die "overlayfs snapshotter not ok: $(ctr -a "$SOCK" plugins ls | grep overlayfs)"
  log "overlayfs snapshotter unavailable; falling back to native"
  stop_ours
  try=native
  write_config native
  start_containerd
fi
echo "$try" >"$E2E_DIR/snapshotter"
log "importing local images"
ctr -a "$SOCK" -n k8s.io images import --snapshotter "$try" "$IMAGES" >/dev/null
print_info 0
