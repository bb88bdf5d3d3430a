#!/crivm/bin/busybox sh
# Stage 2, run by busybox init (PID 1) inside the VM: "start" as sysinit, "stop" at poweroff.
# Pure cgroup v2 at /sys/fs/cgroup, swap, network, containerd (CRI on TCP), command server.
# The root is the host's root (read-only virtiofs) under a tmpfs overlay; host paths work as is.
. /crivm/env
export PATH="$CTRD_DIR:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/crivm/bin"
B=/crivm/bin/busybox
CG=/sys/fs/cgroup
R=/run/crivm
up() { $B cut -d' ' -f1 /proc/uptime; }
say() { echo "CRIVM $*" >/dev/console; }
fail() {
  echo "CRIVM_FAILED: $*" >/dev/console
  [ -s $R/containerd.log ] && $B tail -n 20 $R/containerd.log >/dev/console
  exit 1
}

if [ "${1:-start}" = stop ]; then
  say "stopping"
  [ -s $R/containerd.pid ] && kill "$(cat $R/containerd.pid)" 2>/dev/null
  $B swapoff -a 2>/dev/null
  exit 0
fi

[ "$DEBUG" = 1 ] && set -x   # trace to the console (VM_DEBUG=1)

# ---------------------------------------------------------------- filesystems
$B mkdir -p /dev/pts /dev/shm /dev/mqueue
$B mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
$B mount -t tmpfs -o mode=1777,nosuid,nodev shm /dev/shm
$B mount -t mqueue mqueue /dev/mqueue 2>/dev/null
$B mount -t tmpfs -o mode=755,nosuid,nodev run /run
$B mkdir -p $R /run/lock /run/containerd
# cgroup v2 only (the kernel runs with cgroup_no_v1=all), mounted like systemd does
$B mount -t cgroup2 -o nsdelegate,memory_recursiveprot cgroup2 $CG || fail "mount cgroup2"
# containerd's root on its own tmpfs: the overlayfs snapshotter cannot use the overlay root
$B mkdir -p /var/lib/containerd /var/lib/cni /var/log/pods
$B mount -t tmpfs -o mode=711 containerd /var/lib/containerd
# the kernel's full module tree from the host's cache; busybox modprobe for request_module()
$B mkdir -p /lib/modules/$KVER
if [ -s "$MODDIR/modules.dep" ]; then
  $B mount --bind "$MODDIR" /lib/modules/$KVER
else
  $B mount --bind /crivm/modules/$KVER /lib/modules/$KVER
fi
echo /crivm/bin/modprobe >/proc/sys/kernel/modprobe
# uncached, read-only view of the host (host changes visible at once); VM_LIVE_DIRS bound from it
$B mkdir -p $R/hostlive
if $B mount -t virtiofs -o ro hostlive $R/hostlive; then
  for d in $LIVE_DIRS; do
    [ -d "$R/hostlive$d" ] && $B mkdir -p "$d" && $B mount --bind "$R/hostlive$d" "$d"
  done
fi
$B hostname crivm
echo crivm >/etc/hostname
printf '127.0.0.1 localhost\n127.0.1.1 crivm\n' >/etc/hosts
say "STAGE2 mounts $(up)s"

# ---------------------------------------------------------------- cgroup v2 controllers
ctrls="$(cat $CG/cgroup.controllers)"
for c in $ctrls; do echo "+$c" >$CG/cgroup.subtree_control || fail "enable $c"; done
$B mkdir -p $CG/system.slice
for c in $ctrls; do echo "+$c" >$CG/system.slice/cgroup.subtree_control 2>/dev/null; done
# svc NAME CMD...: run CMD in its own cgroup /system.slice/NAME.service, detached
svc() {
  d=$CG/system.slice/$1.service; $B mkdir -p $d; shift
  ( echo 0 >$d/cgroup.procs; exec $B setsid "$@" ) </dev/null &
}
say "cgroup2 controllers: $(cat $CG/cgroup.subtree_control)"

# ---------------------------------------------------------------- network (qemu user net)
$B modprobe virtio_net; $B modprobe virtio-rng
$B modprobe virtio_balloon   # free page reporting: freed guest pages go back to the host
$B ip link set lo up
$B ip link set eth0 up
$B ip addr add $GUEST_IP/24 dev eth0
$B ip route add default via 10.0.2.2

# ---------------------------------------------------------------- disks, swap
$B modprobe virtio_blk
for d in /sys/block/vd*; do
  [ -e "$d" ] && say "disk ${d##*/} serial $(cat $d/serial 2>/dev/null) dev $(cat $d/dev) scheduler $(cat $d/queue/scheduler)"
done
case "$SWAP" in
  zram)
    $B modprobe lzo-rle; $B modprobe zram num_devices=1 || fail "modprobe zram"
    echo "${SWAP_MB}M" >/sys/block/zram0/disksize || fail "zram disksize"
    $B mkswap /dev/zram0 >/dev/null && $B swapon /dev/zram0 || fail "swapon zram" ;;
  disk)
    sw=""
    for d in /sys/block/vd*; do [ "$(cat $d/serial 2>/dev/null)" = crm-swap ] && sw=/dev/${d##*/}; done
    [ -n "$sw" ] || fail "no virtio disk with serial crm-swap"
    $B mkswap $sw >/dev/null && $B swapon $sw || fail "swapon $sw" ;;
  none) ;;
  *) fail "SWAP=$SWAP" ;;
esac
say "swap: $($B awk 'NR > 1 {printf "%s %s kB ", $1, $3}' /proc/swaps)"

# ---------------------------------------------------------------- containerd
$B mkdir -p $R/cni/net.d $R/cni/ipam /etc/crictl
if [ "$CNI" = 1 ] && [ -x /usr/lib/cni/bridge ]; then
  $B modprobe bridge; $B modprobe veth
  cat >$R/cni/net.d/10-crivm.conflist <<EOF
{
  "cniVersion": "0.4.0",
  "name": "crivm",
  "plugins": [
    {
      "type": "bridge", "bridge": "crivm0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": "10.88.0.0/24", "rangeStart": "10.88.0.10", "rangeEnd": "10.88.0.250", "gateway": "10.88.0.1"}]],
        "routes": [],
        "dataDir": "$R/cni/ipam"
      }
    }
  ]
}
EOF
fi
nri_disable=true; [ "$NRI" = 1 ] && nri_disable=false
cat >$R/containerd.toml <<EOF
version = 2
root = "/var/lib/containerd"
state = "/run/containerd"
oom_score = 0

[grpc]
  address = "/run/containerd/containerd.sock"
  # CRI reachable from the host through qemu's hostfwd (the CRI plugin serves TCP when
  # disable_tcp_service = false)
  tcp_address = "$GUEST_IP:$CRI_PORT"
[debug]
  level = "info"

[plugins."io.containerd.grpc.v1.cri"]
  disable_tcp_service = false
  sandbox_image = "localhost/e2e/pause:1"
  stream_server_address = "127.0.0.1"
  stream_server_port = "$STREAM_PORT"
  enable_selinux = false
  disable_apparmor = true
  max_container_log_line_size = 16384
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "$SNAPSHOTTER"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$RUNC"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$R/cni/net.d"
EOF
if "$CTRD_DIR/containerd" --version | $B grep -qE ' v?1\.7\.'; then
  cat >>$R/containerd.toml <<EOF

[plugins."io.containerd.nri.v1.nri"]
  disable = $nri_disable
  socket_path = "/var/run/nri/nri.sock"
  plugin_path = "/opt/nri/plugins"
  plugin_config_path = "/etc/nri/conf.d"
  # TCG runs a JVM plugin's first calls 10-50 times slower than a real node: 2 s, the default
  # request timeout, drops cri-resmgr --nri (NriModeVmIT) in the middle of a test
  plugin_registration_timeout = "30s"
  plugin_request_timeout = "30s"
EOF
fi
cat >/etc/crictl.yaml <<EOF
runtime-endpoint: unix:///run/containerd/containerd.sock
image-endpoint: unix:///run/containerd/containerd.sock
timeout: 120
EOF
[ -n "$CRICTL" ] && $B ln -sf "$CRICTL" /crivm/bin/crictl

CTR="$CTRD_DIR/ctr -a /run/containerd/containerd.sock"
svc containerd "$CTRD_DIR/containerd" --config $R/containerd.toml >$R/containerd.log 2>&1
# wait_for SECONDS CMD...: poll CMD every 0.2 s
wait_for() {
  _end=$(( $($B cut -d. -f1 /proc/uptime) + $1 )); shift
  until "$@"; do [ "$($B cut -d. -f1 /proc/uptime)" -lt $_end ] || return 1; $B sleep 0.2; done
}
ctrd_up() {
  $CTR version >/dev/null 2>&1 && return 0
  [ -n "$(cat $CG/system.slice/containerd.service/cgroup.procs)" ] || fail "containerd exited"
  return 1
}
wait_for 300 ctrd_up || fail "containerd not answering"
$B cat $CG/system.slice/containerd.service/cgroup.procs | $B head -1 >$R/containerd.pid
say "containerd $("$CTRD_DIR/containerd" --version | $B awk '{print $3}') up $(up)s"
if ! $CTR plugins ls | $B grep -qE "snapshotter\.v1 +$SNAPSHOTTER +[^ ]+ +ok"; then
  fail "snapshotter $SNAPSHOTTER not ok: $($CTR plugins ls | $B grep snapshotter)"
fi
$CTR -n k8s.io images import --snapshotter "$SNAPSHOTTER" "$IMAGES" >/dev/null || fail "image import"
say "images imported $(up)s"

# ---------------------------------------------------------------- command server, stream bridge
svc crivm-cmd "$SOCAT" "TCP-LISTEN:$CMD_PORT,bind=$GUEST_IP,fork,reuseaddr" \
  "EXEC:$B sh /crivm/cmd-handler.sh" >$R/cmd-server.log 2>&1
# containerd's stream server (exec/attach/port-forward URLs) listens on 127.0.0.1:$STREAM_PORT;
# the host reaches the same port number through hostfwd -> eth0 -> this bridge
svc crivm-stream "$SOCAT" "TCP-LISTEN:$STREAM_PORT,bind=$GUEST_IP,fork,reuseaddr" \
  "TCP:127.0.0.1:$STREAM_PORT" >$R/stream-bridge.log 2>&1
cmd_up() { $B netstat -ltn | $B grep -q "$GUEST_IP:$CMD_PORT "; }
wait_for 120 cmd_up || fail "command server not listening"
echo "CRIVM_READY uptime=$(up)s mem_used_kB=$($B awk '/MemTotal/ {t=$2} /MemAvailable/ {a=$2} END {print t - a}' /proc/meminfo)" >/dev/console
