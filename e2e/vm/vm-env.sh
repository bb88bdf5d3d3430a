# Sourced by start-vm.sh, stop-vm.sh, vm-exec.sh and vm-forward.sh (host side).
# Every setting can be overridden from the environment; see docs/e2e.md ("The VM bed").

VM_DIR="${VM_DIR:-/tmp/cri-resmgr-vm}"                # per-VM state: pid files, sockets, logs, initrd
VM_CACHE="${VM_CACHE:-/tmp/cri-resmgr-vm-cache}"      # downloads shared by all VMs: kernel, socat, containerd 1.7, images
VM_MEM_MB="${VM_MEM_MB:-2048}"
VM_CPUS="${VM_CPUS:-2}"
VM_CPU_MODEL="${VM_CPU_MODEL:-qemu64}"        # qemu -cpu (TCG); "max" works too, was not faster
VM_TB_MB="${VM_TB_MB:-256}"                   # TCG translation cache (qemu default 1024 MiB, all of it resident)
VM_VIRTIOFS_CACHE="${VM_VIRTIOFS_CACHE:-always}" # always: guest page cache kept (fast exec); auto: revalidated
VM_SWAP="${VM_SWAP:-zram}"                    # zram | disk (virtio disk image) | none
VM_SWAP_MB="${VM_SWAP_MB:-1024}"
VM_DATA_DISK_MB="${VM_DATA_DISK_MB:-64}"       # a sparse virtio disk with serial "crm-data" (block I/O tests); 0 = none
VM_CONTAINERD="${VM_CONTAINERD:-1.7}"         # 1.7 = Debian trixie's (production), 1.6 = host's /usr/bin/containerd
VM_SNAPSHOTTER="${VM_SNAPSHOTTER:-overlayfs}" # overlayfs | native
VM_CNI="${VM_CNI:-1}"                         # 1 = bridge CNI inside the VM (pods with their own netns)
VM_NRI="${VM_NRI:-0}"                         # 1 = enable NRI (containerd 1.7 only), socket /var/run/nri/nri.sock
VM_BOOT_TIMEOUT="${VM_BOOT_TIMEOUT:-600}"     # seconds to wait for CRI readiness (TCG on a busy host)
VM_KERNEL_PKG="${VM_KERNEL_PKG:-}"            # default: what linux-image-cloud-amd64 depends on
VM_RUNC="${VM_RUNC:-/usr/sbin/runc}"          # runc binary used inside the VM (path on the host)
VM_SHARE_EXTRA="${VM_SHARE_EXTRA:-}"          # extra host paths on other filesystems to expose in the VM
VM_LIVE_DIRS="${VM_LIVE_DIRS:-}"              # host dirs the VM sees uncached (host changes visible at once)
VM_APPEND_EXTRA="${VM_APPEND_EXTRA:-}"        # extra kernel command line
VM_DEBUG="${VM_DEBUG:-0}"                     # 1 = trace the guest's setup script on the console

VM_SOCK="$VM_DIR/containerd.sock"
VM_GUEST_IP=10.0.2.15
VM_GUEST_CRI_PORT=10010   # containerd grpc tcp_address inside the VM (CRI served on TCP)
VM_GUEST_CMD_PORT=10022   # command server inside the VM
VIRTIOFSD="${VIRTIOFSD:-/usr/lib/qemu/virtiofsd}"

crivm_log() { echo "[${0##*/}] $*" >&2; }
crivm_die() { echo "[${0##*/}] ERROR: $*" >&2; exit 1; }

# pid_of PIDFILE COMM -> prints the pid if that process is alive and has that comm
crivm_pid_of() {
  local p; [ -s "$1" ] || return 1; p="$(cat "$1")"
  [ -d "/proc/$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] && echo "$p"
}

# ports chosen at start (CRI_PORT, CMD_PORT, STREAM_PORT)
crivm_load_ports() {
  [ -s "$VM_DIR/ports" ] || return 1
  # shellcheck disable=SC1091
  . "$VM_DIR/ports"
}

crivm_find_crictl() {
  if [ -n "${CRICTL:-}" ]; then echo "$CRICTL"; return; fi
  command -v crictl || true
}
