#!/usr/bin/env bash
# Boot a small Linux VM (QEMU, TCG) with a pure cgroup v2 hierarchy and a real containerd + runc,
# and expose its CRI on a unix socket on this host.
#
#   host: crictl / proxy --> $VM_DIR/containerd.sock --socat--> 127.0.0.1:$CRI_PORT
#         --qemu user-net hostfwd--> guest 10.0.2.15:10010 = containerd grpc tcp_address (CRI)
#
# The guest's root is this host's root filesystem, shared read-only through virtiofs (QEMU's
# bundled /usr/lib/qemu/virtiofsd; the Debian cloud kernel has no 9p), under a tmpfs overlay.
# Debian's cloud kernel, socat, containerd 1.7 (trixie) are fetched from Debian's archive into
# $VM_CACHE on first use.  Nothing is installed on the host.
#
# Idempotent: prints the connection details again if the VM is up.
# Prints: CRI_ENDPOINT=unix://..., VM_EXEC=..., VM_QEMU_PID=..., ...
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=vm-env.sh
. "$HERE/vm-env.sh"
E2E_SRC="${E2E_SRC:-$HERE/../bed}"     # mk-oci-images.py and pause.c (the containerd bed's)

[ "$(id -u)" = 0 ] || crivm_die "must run as root (virtiofsd needs it)"
command -v qemu-system-x86_64 >/dev/null || crivm_die "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
[ -x "$VIRTIOFSD" ] || crivm_die "$VIRTIOFSD missing (Debian 12 ships it in qemu-system-common)"
for t in cpio dpkg-deb apt-get unshare python3; do command -v "$t" >/dev/null || crivm_die "$t missing"; done

print_info() {
  crivm_load_ports
  echo "CRI_ENDPOINT=unix://$VM_SOCK"
  echo "CONTAINERD_SOCKET=$VM_SOCK"
  echo "VM_DIR=$VM_DIR"
  echo "VM_QEMU_PID=$(cat "$VM_DIR/qemu.pid")"
  echo "VM_EXEC=$HERE/vm-exec.sh"
  echo "VM_CONSOLE_LOG=$VM_DIR/console.log"
  echo "VM_CONTAINERD=$(cat "$VM_DIR/containerd-version" 2>/dev/null)"
  echo "VM_STREAM_PORT=$STREAM_PORT"
  echo "CRICTL_CONFIG=$VM_DIR/crictl.yaml"
}

vm_up() {
  crivm_pid_of "$VM_DIR/qemu.pid" qemu-system-x86 >/dev/null &&
    crivm_pid_of "$VM_DIR/socat.pid" socat >/dev/null &&
    grep -q CRIVM_READY "$VM_DIR/console.log" 2>/dev/null
}
if vm_up; then crivm_log "already running"; print_info; exit 0; fi
if crivm_pid_of "$VM_DIR/qemu.pid" qemu-system-x86 >/dev/null; then
  crivm_die "a VM from $VM_DIR is running but not ready; run stop-vm.sh first"
fi

mkdir -p "$VM_CACHE"/{debs,pkgs,build,bin}

# ------------------------------------------------------------------ downloads (Debian archive)
# deb_unpack PACKAGE DIR [apt-get options...]: download PACKAGE.deb into $VM_CACHE/debs, extract to DIR
deb_unpack() {
  local pkg="$1" dir="$2"; shift 2
  [ -e "$dir/.done" ] && return 0
  local dl="$VM_CACHE/debs/$pkg.dl"
  rm -rf "$dl" "$dir" && mkdir -p "$dl"
  crivm_log "downloading $pkg"
  if ! (cd "$dl" && apt-get "$@" download "$pkg" >/dev/null 2>&1); then
    apt-get "$@" update -qq >/dev/null 2>&1 || true
    (cd "$dl" && apt-get "$@" download "$pkg" >/dev/null) || crivm_die "apt-get download $pkg failed"
  fi
  mkdir -p "$dir"
  dpkg-deb -x "$dl"/*.deb "$dir"
  touch "$dir/.done"
}

# static busybox: the initramfs and PID 1 of the guest
BUSYBOX_STATIC=/bin/busybox
if ! [ -x "$BUSYBOX_STATIC" ] || ldd "$BUSYBOX_STATIC" >/dev/null 2>&1; then
  deb_unpack busybox-static "$VM_CACHE/pkgs/busybox-static"
  BUSYBOX_STATIC="$VM_CACHE/pkgs/busybox-static/bin/busybox"
fi

# kernel: Debian's cloud kernel, vmlinuz + modules (+ modules.dep made by busybox depmod)
if [ -z "$VM_KERNEL_PKG" ]; then
  VM_KERNEL_PKG="$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')"
  [ -n "$VM_KERNEL_PKG" ] || crivm_die "cannot resolve linux-image-cloud-amd64 (apt-get update?); set VM_KERNEL_PKG"
fi
KVER="${VM_KERNEL_PKG#linux-image-}"
KDIR="$VM_CACHE/kernel/$KVER"
if ! [ -e "$KDIR/.done" ]; then
  deb_unpack "$VM_KERNEL_PKG" "$KDIR"
  "$BUSYBOX_STATIC" depmod -b "$KDIR" "$KVER"
fi
VMLINUZ="$KDIR/boot/vmlinuz-$KVER"
MODDIR="$KDIR/lib/modules/$KVER"
[ -r "$VMLINUZ" ] && [ -s "$MODDIR/modules.dep" ] || crivm_die "bad kernel extraction in $KDIR (rm -rf it)"

# socat: host side of the CRI bridge, and the command server in the guest
if command -v socat >/dev/null; then
  SOCAT="$(command -v socat)"
else
  deb_unpack socat "$VM_CACHE/pkgs/socat"
  deb_unpack libwrap0 "$VM_CACHE/pkgs/libwrap0"
  SOCAT="$VM_CACHE/bin/socat"
  cat >"$SOCAT" <<EOF
#!/bin/sh
# socat from Debian's archive, unpacked (not installed); libwrap0 unpacked next to it
LD_LIBRARY_PATH="$VM_CACHE/pkgs/libwrap0/lib/x86_64-linux-gnu:$VM_CACHE/pkgs/libwrap0/usr/lib/x86_64-linux-gnu" exec "$VM_CACHE/pkgs/socat/usr/bin/socat" "\$@"
EOF
  chmod +x "$SOCAT"
fi
"$SOCAT" -V >/dev/null 2>&1 || crivm_die "socat does not run: $SOCAT"

# containerd
case "$VM_CONTAINERD" in
  1.6)
    CTRD_DIR=/usr/bin
    [ -x /usr/bin/containerd ] || crivm_die "host containerd missing (apt-get install containerd) or use VM_CONTAINERD=1.7" ;;
  1.7)
    T="$VM_CACHE/trixie-apt"
    mkdir -p "$T/lists/partial" "$T/archives/partial"
    echo "deb http://deb.debian.org/debian trixie main" >"$T/sources.list"
    trixie=(-o Dir::Etc::sourcelist="$T/sources.list" -o Dir::Etc::sourceparts=/dev/null
            -o Dir::State::Lists="$T/lists" -o Dir::Cache::archives="$T/archives" -o Dir::Cache="$T")
    if ! ls "$T/lists/"*Packages* >/dev/null 2>&1; then
      crivm_log "apt-get update (trixie, private lists in $T)"
      apt-get "${trixie[@]}" update -qq >/dev/null || crivm_die "trixie apt-get update failed"
    fi
    deb_unpack containerd "$VM_CACHE/pkgs/containerd-trixie" "${trixie[@]}"
    CTRD_DIR="$VM_CACHE/pkgs/containerd-trixie/usr/bin" ;;
  *) crivm_die "VM_CONTAINERD must be 1.6 or 1.7" ;;
esac
[ -x "$VM_RUNC" ] || crivm_die "runc missing: $VM_RUNC (apt-get install runc)"

# images: OCI tarball with localhost/e2e/pause:1 and localhost/e2e/busybox:1 (the e2e bed's builder)
IMAGES="$VM_CACHE/images.tar"
if ! [ -s "$IMAGES" ] || [ "$E2E_SRC/mk-oci-images.py" -nt "$IMAGES" ] || [ "$E2E_SRC/pause.c" -nt "$IMAGES" ]; then
  command -v gcc >/dev/null || crivm_die "gcc missing (needed once to build the pause image)"
  # Debian's dynamic busybox, like the e2e bed (its sh execs applets, so ps shows "dd", "sleep")
  BB_IMG="$BUSYBOX_STATIC"
  if deb_unpack busybox "$VM_CACHE/pkgs/busybox" 2>/dev/null && [ -x "$VM_CACHE/pkgs/busybox/bin/busybox" ]; then
    BB_IMG="$VM_CACHE/pkgs/busybox/bin/busybox"
  fi
  gcc -O2 -static -s -o "$VM_CACHE/build/pause" "$E2E_SRC/pause.c"
  python3 "$E2E_SRC/mk-oci-images.py" "$IMAGES.tmp" --busybox "$BB_IMG" --pause "$VM_CACHE/build/pause"
  mv "$IMAGES.tmp" "$IMAGES"
fi

# ------------------------------------------------------------------ per-VM state
mkdir -p "$VM_DIR"
# stale state from a crashed run: our own processes only, by pid file
for pf in socat virtiofsd-hostroot virtiofsd-hostlive; do
  if p="$(crivm_pid_of "$VM_DIR/$pf.pid" "${pf%%-*}")"; then kill "$p" 2>/dev/null || true; fi
done
rm -f "$VM_DIR"/{console.log,qemu.log,socat.log,qemu.pid,socat.pid} "$VM_DIR"/virtiofsd-*
rm -f "$VM_SOCK" "$VM_DIR/qemu-monitor.sock"
echo "$VM_CONTAINERD" >"$VM_DIR/containerd-version"

# host ports (127.0.0.1 only): CRI, command server, CRI streaming server (same number in the guest)
read -r p1 p2 p3 < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
CRI_PORT="${VM_CRI_PORT:-$p1}"; CMD_PORT="${VM_CMD_PORT:-$p2}"; STREAM_PORT="${VM_STREAM_PORT:-$p3}"
printf 'CRI_PORT=%s\nCMD_PORT=%s\nSTREAM_PORT=%s\nSOCAT=%s\n' "$CRI_PORT" "$CMD_PORT" "$STREAM_PORT" "$SOCAT" >"$VM_DIR/ports"

cat >"$VM_DIR/crictl.yaml" <<EOF
runtime-endpoint: unix://$VM_SOCK
image-endpoint: unix://$VM_SOCK
timeout: 120
EOF

# ------------------------------------------------------------------ initramfs (stage 1)
IR="$VM_DIR/initramfs"
rm -rf "$IR" && mkdir -p "$IR"/{bin,dev,proc,sys,host,rw,newroot}
cp "$BUSYBOX_STATIC" "$IR/bin/busybox"
cp "$HERE/guest/init" "$IR/init"
cp "$HERE/guest/guest-init.sh" "$HERE/guest/cmd-handler.sh" "$IR/"
chmod 755 "$IR/init"
# modules the guest needs before and after switching root (closure from modules.dep)
want="virtio_pci virtiofs overlay virtio_net virtio_blk virtio-rng virtio_balloon zram lzo-rle lzo bridge veth"
for m in $want; do
  line="$(grep -E "(^|/)$m\.ko:" "$MODDIR/modules.dep")" || { crivm_log "module $m not in kernel, skipped"; continue; }
  for f in ${line#*:} "${line%%:*}"; do
    mkdir -p "$IR/lib/modules/$KVER/$(dirname "$f")"
    cp -n "$MODDIR/$f" "$IR/lib/modules/$KVER/$f"
  done
done
"$BUSYBOX_STATIC" depmod -b "$IR" "$KVER"

q() { case "$1" in *\'*) crivm_die "quote in value: $1" ;; esac; printf "'%s'" "$1"; }
{
  echo "KVER=$(q "$KVER")"
  echo "MODDIR=$(q "$MODDIR")"
  echo "CTRD_DIR=$(q "$CTRD_DIR")"
  echo "RUNC=$(q "$VM_RUNC")"
  echo "SOCAT=$(q "$SOCAT")"
  echo "IMAGES=$(q "$IMAGES")"
  echo "SNAPSHOTTER=$(q "$VM_SNAPSHOTTER")"
  echo "CNI=$(q "$VM_CNI")"
  echo "NRI=$(q "$VM_NRI")"
  echo "SWAP=$(q "$VM_SWAP")"
  echo "SWAP_MB=$(q "$VM_SWAP_MB")"
  echo "GUEST_IP=$(q "$VM_GUEST_IP")"
  echo "CRI_PORT=$(q "$VM_GUEST_CRI_PORT")"
  echo "CMD_PORT=$(q "$VM_GUEST_CMD_PORT")"
  echo "STREAM_PORT=$(q "$STREAM_PORT")"
  echo "CRICTL=$(q "$(crivm_find_crictl)")"
  echo "DEBUG=$(q "${VM_DEBUG:-0}")"
  echo "LIVE_DIRS=$(q "$VM_LIVE_DIRS")"
} >"$IR/crivm.env"
(cd "$IR" && find . | cpio -o -H newc -R 0:0 --quiet) >"$VM_DIR/initrd.img"

# ------------------------------------------------------------------ virtiofsd: host / read-only
# Only in virtiofsd's private mount namespace: a non-recursive read-only bind of /, plus the
# filesystems holding what the guest needs (cache, state, this directory, VM_SHARE_EXTRA,
# VM_LIVE_DIRS).  Two daemons: "hostroot" (cache=$VM_VIRTIOFS_CACHE, the guest's root) and
# "hostlive" (cache=none: always current; mounted at /run/crivm/hostlive, VM_LIVE_DIRS bound from it).
submounts=()
for p in /usr "$VM_CACHE" "$VM_DIR" "$HERE" "$(dirname "$VM_RUNC")" $VM_SHARE_EXTRA $VM_LIVE_DIRS; do
  [ -e "$p" ] || crivm_die "no such path to share: $p"
  mp="$(stat -c %m "$p")"
  [ "$mp" = / ] || submounts+=("$mp")
done
mapfile -t submounts < <(printf '%s\n' "${submounts[@]}" | awk 'NF && !s[$0]++' | sort)
start_virtiofsd() { # name cache
  local sock="$VM_DIR/virtiofsd-$1.sock"
  mkdir -p "$VM_DIR/share-$1"
  setsid unshare -m --propagation private -- /bin/sh -c '
    R="$1"; S="$2"; V="$3"; C="$4"; shift 4
    mount --bind / "$R" && mount -o remount,bind,ro "$R" || exit 1
    for mp in "$@"; do mount --bind "$mp" "$R$mp" && mount -o remount,bind,ro "$R$mp" || exit 1; done
    exec "$V" --socket-path="$S" -o source="$R" -o cache="$C" -o announce_submounts -o sandbox=namespace
  ' sh "$VM_DIR/share-$1" "$sock" "$VIRTIOFSD" "$2" "${submounts[@]}" \
    >"$VM_DIR/virtiofsd-$1.log" 2>&1 </dev/null &
  echo $! >"$VM_DIR/virtiofsd-$1.pid"
  for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.05; done
  [ -S "$sock" ] || crivm_die "virtiofsd $1 did not start: $(tail -n 5 "$VM_DIR/virtiofsd-$1.log")"
}
start_virtiofsd hostroot "$VM_VIRTIOFS_CACHE"
start_virtiofsd hostlive none

# ------------------------------------------------------------------ qemu
swapdrive=()
if [ "$VM_SWAP" = disk ]; then
  rm -f "$VM_DIR/swap.img"; truncate -s "${VM_SWAP_MB}M" "$VM_DIR/swap.img"
  swapdrive=(-drive "file=$VM_DIR/swap.img,format=raw,if=none,id=swap,cache=unsafe"
             -device virtio-blk-pci,drive=swap,serial=crm-swap)
fi
# a data disk the guest leaves alone, for block I/O classes (found in the guest by its serial)
if [ "$VM_DATA_DISK_MB" -gt 0 ]; then
  rm -f "$VM_DIR/data.img"; truncate -s "${VM_DATA_DISK_MB}M" "$VM_DIR/data.img"
  swapdrive+=(-drive "file=$VM_DIR/data.img,format=raw,if=none,id=data,cache=unsafe"
              -device virtio-blk-pci,drive=data,serial=crm-data)
fi
t0=$(date +%s%N)
setsid qemu-system-x86_64 -name crivm -accel "tcg,tb-size=$VM_TB_MB" -cpu "$VM_CPU_MODEL" -smp "$VM_CPUS" -m "$VM_MEM_MB" \
  -object "memory-backend-memfd,id=mem,size=${VM_MEM_MB}M,share=on" -machine pc,memory-backend=mem \
  -nodefaults -no-user-config -display none -no-reboot \
  -serial "file:$VM_DIR/console.log" -monitor "unix:$VM_DIR/qemu-monitor.sock,server=on,wait=off" \
  -kernel "$VMLINUZ" -initrd "$VM_DIR/initrd.img" \
  -append "console=ttyS0 quiet panic=-1 mitigations=off cgroup_no_v1=all $VM_APPEND_EXTRA" \
  -chardev "socket,id=vfs0,path=$VM_DIR/virtiofsd-hostroot.sock" -device vhost-user-fs-pci,chardev=vfs0,tag=hostroot \
  -chardev "socket,id=vfs1,path=$VM_DIR/virtiofsd-hostlive.sock" -device vhost-user-fs-pci,chardev=vfs1,tag=hostlive \
  -netdev "user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$CRI_PORT-$VM_GUEST_IP:$VM_GUEST_CRI_PORT,hostfwd=tcp:127.0.0.1:$CMD_PORT-$VM_GUEST_IP:$VM_GUEST_CMD_PORT,hostfwd=tcp:127.0.0.1:$STREAM_PORT-$VM_GUEST_IP:$STREAM_PORT" \
  -device virtio-net-pci,netdev=net0,romfile= -device virtio-rng-pci \
  -device virtio-balloon-pci,free-page-reporting=on \
  "${swapdrive[@]}" \
  >"$VM_DIR/qemu.log" 2>&1 </dev/null &
qemu_pid=$!
echo "$qemu_pid" >"$VM_DIR/qemu.pid"

# host end of the CRI bridge: unix socket -> forwarded TCP port
setsid "$SOCAT" "UNIX-LISTEN:$VM_SOCK,fork,unlink-early,mode=0660" "TCP:127.0.0.1:$CRI_PORT,nodelay" \
  >"$VM_DIR/socat.log" 2>&1 </dev/null &
echo $! >"$VM_DIR/socat.pid"

crivm_log "booting (TCG; kernel $KVER, containerd $VM_CONTAINERD); console: $VM_DIR/console.log"
deadline=$(( $(date +%s) + VM_BOOT_TIMEOUT ))
while :; do
  if grep -q CRIVM_READY "$VM_DIR/console.log" 2>/dev/null; then break; fi
  if grep -q CRIVM_FAILED "$VM_DIR/console.log" 2>/dev/null; then
    tail -n 30 "$VM_DIR/console.log" >&2; crivm_die "guest setup failed (see $VM_DIR/console.log); run stop-vm.sh"
  fi
  # Liveness of our own child, not its name: right after the fork the child may still be the shell
  # or setsid on its way to exec qemu, and a loaded machine catches it there.
  if ! kill -0 "$qemu_pid" 2>/dev/null; then
    rc=0; wait "$qemu_pid" || rc=$?
    tail -n 20 "$VM_DIR/qemu.log" "$VM_DIR/console.log" >&2
    crivm_die "qemu exited with status $rc"
  fi
  [ "$(date +%s)" -lt "$deadline" ] || crivm_die "not ready after ${VM_BOOT_TIMEOUT}s (see $VM_DIR/console.log); run stop-vm.sh"
  sleep 0.2
done
t1=$(date +%s%N)
CRICTL="$(crivm_find_crictl)"
if [ -n "$CRICTL" ]; then
  "$CRICTL" --config "$VM_DIR/crictl.yaml" version >/dev/null || crivm_die "CRI not answering on $VM_SOCK"
fi
t2=$(date +%s%N)
crivm_log "CRI ready $(( (t1 - t0) / 1000000 )) ms after qemu start (first crictl call $(( (t2 - t1) / 1000000 )) ms); $(grep -o '^CRIVM_READY.*' "$VM_DIR/console.log" | head -1)"
print_info
