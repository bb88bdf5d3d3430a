#!/usr/bin/env bash
# Builds the base image of the container images (docs/images.md): a root file system made of
# Debian packages (glibc, zlib, libstdc++, dash and the OpenJDK 17 headless runtime) of the
# machine's release and architecture (bookworm, amd64 here), fetched with apt from the archive
# its sources name and unpacked with dpkg-deb, saved as a Docker-format image tarball that jib
# reads with "tar://" (jib cannot read OCI-layout tarballs as a base).
#
# Usage: mk-base-image.sh CACHE_DIR LINK
# Builds CACHE_DIR/base-<key>.tar if missing and points the symlink LINK at it. The key
# covers this script and the exact .deb files apt resolves, so a rebuild happens only when a
# package has a new version (apt-get update) or this script changes; the .debs are kept in
# CACHE_DIR/debs. Safe to run concurrently: a lock serializes builds sharing CACHE_DIR.
set -euo pipefail

PACKAGES=(base-files libc6 libgcc-s1 libstdc++6 zlib1g dash openjdk-17-jre-headless)
# Debian's names for amd64 and arm64 are also OCI's.
ARCH="$(dpkg --print-architecture 2>/dev/null || echo amd64)"
JAVA_HOME_IN_IMAGE="/usr/lib/jvm/java-17-openjdk-$ARCH"
CACHE="${1:?usage: mk-base-image.sh CACHE_DIR LINK}"
LINK="${2:?usage: mk-base-image.sh CACHE_DIR LINK}"

log() { echo "[mk-base-image] $*" >&2; }
die() { echo "[mk-base-image] ERROR: $*" >&2; exit 1; }

for tool in apt-get dpkg dpkg-deb tar gzip sha256sum flock; do
  command -v "$tool" >/dev/null || die "$tool not found: the base image is built on Debian with apt (or skip the images with -Djib.skip=true)"
done
# Up to date: LINK names an existing base and is newer than this script and apt's package lists.
if [ -e "$LINK" ] && [ -z "$(find "$LINK" ! -newer "$0" -o ! -newer /var/lib/apt/lists)" ]; then
  exit 0
fi
mkdir -p "$CACHE/debs"
exec 9>"$CACHE/lock"
flock 9

# The .deb file names apt resolves now (name_version_arch.deb), and the cache key they give.
resolve() {
  debs="$(apt-get download --print-uris "${PACKAGES[@]}" 2>&1 | awk '/^'"'"'/ {print $2}' | sort)"
  key="$( (cat "$0"; echo "$debs") | sha256sum | cut -c1-16)"
  out="$CACHE/base-$key.tar"
  [ "$(wc -l <<<"$debs")" -eq "${#PACKAGES[@]}" ]
}
update_lists() {
  [ "$(id -u)" = 0 ] || die "$1: run 'apt-get update' as root"
  log "$1; running apt-get update"
  apt-get update -qq >/dev/null
}
fetch() {
  local missing=() f
  for f in $debs; do [ -s "$CACHE/debs/$f" ] || missing+=("$f"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  log "downloading ${#missing[@]} packages with apt-get download"
  (cd "$CACHE/debs" && apt-get download -q -o APT::Sandbox::User="$(id -un)" "${PACKAGES[@]}" >/dev/null)
}

resolve || { update_lists "apt cannot resolve every package"; resolve || die "apt resolves only: $debs"; }
# The archive drops a package's old version when a new one comes: stale lists fail the download.
if [ ! -s "$out" ] && ! fetch; then
  update_lists "apt-get download failed"
  resolve && fetch || die "apt-get download of ${PACKAGES[*]} failed"
fi
for f in "$CACHE"/debs/*.deb; do # superseded versions
  grep -qxF "$(basename "$f")" <<<"$debs" || rm -f "$f"
done
if [ ! -s "$out" ]; then
  work="$(mktemp -d "$CACHE/work.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  log "building $out from: $(echo $debs)"
  rootfs="$work/rootfs"
  mkdir -p "$rootfs/var/lib/dpkg/status.d"
  for f in $debs; do
    dpkg-deb -x "$CACHE/debs/$f" "$rootfs"
    # what is installed, for image scanners (the layout distroless images use)
    dpkg-deb -f "$CACHE/debs/$f" >"$rootfs/var/lib/dpkg/status.d/$(dpkg-deb -f "$CACHE/debs/$f" Package)"
  done
  # Not needed by a Java program, left out to keep the image small: iconv's charset modules
  # (8 MB), the JVM's class-data archive for heaps over 32 GB (12 MB), docs other than the
  # licences (copyright files stay).
  rm -rf "$rootfs"/usr/lib/*-linux-gnu*/gconv "$rootfs$JAVA_HOME_IN_IMAGE/lib/server/classes_nocoops.jsa" \
    "$rootfs/usr/share/man" "$rootfs/usr/share/info" "$rootfs/usr/share/lintian" "$rootfs$JAVA_HOME_IN_IMAGE/man"
  find "$rootfs/usr/share/doc" -type f ! -name copyright -delete
  # what the packages' maintainer scripts would have made: java on the PATH, users and groups
  ln -s "$JAVA_HOME_IN_IMAGE/bin/java" "$rootfs/usr/bin/java"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  chmod 755 "$rootfs"
  mkdir "$work/image"
  tar --sort=name --mtime=@1 --owner=0 --group=0 --numeric-owner --format=gnu -C "$rootfs" -cf "$work/layer.tar" .
  diff_id="$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
  gzip -n -6 <"$work/layer.tar" >"$work/image/layer.tar.gz"
  cat >"$work/image/config.json" <<EOF
{"architecture":"$ARCH","os":"linux","created":"1970-01-01T00:00:01Z",
 "config":{"Env":["PATH=$JAVA_HOME_IN_IMAGE/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  "JAVA_HOME=$JAVA_HOME_IN_IMAGE","LANG=C.UTF-8"]},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff_id"]},
 "history":[{"created":"1970-01-01T00:00:01Z","created_by":"packaging/images/mk-base-image.sh: $(echo $debs)"}]}
EOF
  printf '[{"Config":"config.json","RepoTags":["cri-resmgr-base:%s"],"Layers":["layer.tar.gz"]}]\n' "$key" \
    >"$work/image/manifest.json"
  tar --sort=name --mtime=@1 --owner=0 --group=0 --numeric-owner -C "$work/image" -cf "$work/base.tar" config.json layer.tar.gz manifest.json
  mv "$work/base.tar" "$out"
fi
# Bases unused for a week go (another checkout may still use an older one meanwhile).
touch "$out"
find "$CACHE" -maxdepth 1 -name 'base-*.tar' -mtime +7 -delete
mkdir -p "$(dirname "$LINK")"
ln -sfn "$(readlink -f "$out")" "$LINK"
log "$LINK -> $out"
