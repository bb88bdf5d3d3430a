#!/usr/bin/env bash
# Makes a class data sharing (AppCDS) archive of bin/cri-resmgr for daemons started in the VM bed,
# with bin/cri-resmgr-cds recording against the runtime socket given (the VM's containerd,
# forwarded). Under TCG a daemon with the archive serves in about half the time (docs/e2e.md,
# "The VM bed"). The archive only speeds up class loading: with a missing or stale one the JVM
# runs without it.
#   cds-archive.sh RUNTIME_SOCKET OUT_DIR      prints CDS_ARCHIVE=OUT_DIR/cri-resmgr.jsa
set -euo pipefail
[ $# = 2 ] || { echo "usage: cds-archive.sh RUNTIME_SOCKET OUT_DIR" >&2; exit 2; }
sock="$1"; out="$2"
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rm -rf "$out" && mkdir -p "$out"
RUNTIME_SOCKET="$sock" "$top/bin/cri-resmgr-cds" "$out/cri-resmgr.jsa" >"$out/cds.log" 2>&1 \
  || { echo "cri-resmgr-cds failed:" >&2; cat "$out/cds.log" >&2; exit 1; }
echo "CDS_ARCHIVE=$out/cri-resmgr.jsa"
