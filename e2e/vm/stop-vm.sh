#!/usr/bin/env bash
# Stop what start-vm.sh started, by PID file only: qemu, the host socat bridge, virtiofsd.
# Idempotent.  VM_DIR (default /tmp/cri-resmgr-vm); VM_PURGE=1 also deletes $VM_DIR (not $VM_CACHE).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=vm-env.sh
. "$HERE/vm-env.sh"

kill_wait() { # pid
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 100); do [ -d "/proc/$1" ] || return 0; sleep 0.1; done
  crivm_log "pid $1 ignored SIGTERM, sending SIGKILL"; kill -9 "$1" 2>/dev/null || true
}

# the VM keeps all its state in RAM: no guest shutdown needed, qemu exits on SIGTERM
if p="$(crivm_pid_of "$VM_DIR/qemu.pid" qemu-system-x86)"; then crivm_log "stopping qemu $p"; kill_wait "$p"; fi
for pf in "$VM_DIR"/socat.pid "$VM_DIR"/forward-*.pid; do
  if p="$(crivm_pid_of "$pf" socat)"; then kill_wait "$p"; fi
  rm -f "$pf"
done
# virtiofsd exits by itself when qemu goes away
for d in hostroot hostlive; do
  if p="$(crivm_pid_of "$VM_DIR/virtiofsd-$d.pid" virtiofsd)"; then kill_wait "$p"; fi
done
rm -f "$VM_SOCK" "$VM_DIR"/virtiofsd-*.sock "$VM_DIR"/virtiofsd-*.pid "$VM_DIR/qemu-monitor.sock" \
  "$VM_DIR/swap.img" "$VM_DIR/data.img" "$VM_DIR"/{qemu,socat}.pid "$VM_DIR/ports"

if [ "${VM_PURGE:-0}" = 1 ] && [ -d "$VM_DIR" ]; then
  # share-* are only ever mounted inside virtiofsd's private namespaces; refuse if one is here
  for d in "$VM_DIR"/share-*; do
    if mountpoint -q "$d" 2>/dev/null; then crivm_die "$d is a mount point, not purging"; fi
  done
  rm -rf --one-file-system "$VM_DIR"
  crivm_log "removed $VM_DIR"
fi
crivm_log "stopped"
