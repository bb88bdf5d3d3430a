#!/usr/bin/env bash
# Make a unix socket inside the VM reachable as a unix socket on the host, e.g. a proxy
# running inside the VM:   vm-forward.sh /run/crm/relay.sock /tmp/cri-resmgr-vm/relay.sock
# host socket -> socat -> 127.0.0.1:<port> -> qemu hostfwd (added at run time through the
# monitor) -> guest 10.0.2.15:<port> -> socat -> guest socket.  Prints HOST_SOCKET=...
# The forward lives until stop-vm.sh (which stops the host socat by its pid file).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=vm-env.sh
. "$HERE/vm-env.sh"
[ $# = 2 ] || crivm_die "usage: vm-forward.sh GUEST_SOCKET HOST_SOCKET"
guest_sock="$1"; host_sock="$2"
crivm_load_ports || crivm_die "no VM in $VM_DIR (start-vm.sh)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
reply="$(printf 'hostfwd_add net0 tcp:127.0.0.1:%s-%s:%s\n' "$port" "$VM_GUEST_IP" "$port" |
  "$SOCAT" -t 2 - "UNIX-CONNECT:$VM_DIR/qemu-monitor.sock" 2>&1)" || crivm_die "qemu monitor: $reply"
case "$reply" in *rror*|*nvalid*|*"ould not"*) crivm_die "hostfwd_add: $reply" ;; esac
"$HERE/vm-exec.sh" ". /crivm/env; setsid \"\$SOCAT\" TCP-LISTEN:$port,bind=$VM_GUEST_IP,fork,reuseaddr \
  UNIX-CONNECT:$guest_sock >/dev/null 2>&1 </dev/null &
  for i in \$(seq 1 100); do netstat -ltn | grep -q '$VM_GUEST_IP:$port ' && exit 0; sleep 0.1; done
  echo 'guest socat not listening'; exit 1" || crivm_die "guest side failed"
setsid "$SOCAT" "UNIX-LISTEN:$host_sock,fork,unlink-early,mode=0660" "TCP:127.0.0.1:$port,nodelay" \
  >>"$VM_DIR/forward.log" 2>&1 </dev/null &
echo $! >"$VM_DIR/forward-$port.pid"
for _ in $(seq 1 100); do [ -S "$host_sock" ] && break; sleep 0.05; done
[ -S "$host_sock" ] || crivm_die "host socat did not create $host_sock"
echo "HOST_SOCKET=$host_sock"
