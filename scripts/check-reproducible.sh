#!/usr/bin/env bash
# Checks that two builds of this tree give byte-identical shipped artifacts (docs/building.md):
# the jars of the modules in the distribution, the distribution archive, the .deb packages and
# the container images of the last build in this tree (`./mvnw verify` or `package`) against a
# second build of a copy of the tree made in another directory, offline (for Maven) and without
# tests. Exits 1 naming every artifact that differs.
# The second build also runs in another time zone and umask, which must not matter either.
# Usage: scripts/check-reproducible.sh      (after ./mvnw -B verify; .ci/run does so)
# Environment: REPRO_DIR (default: a new temporary directory, removed afterwards);
#   REPRO_ALL=1 builds and compares every module's jars, test jars included (the benchmarks'
#   JMH code, fuzz targets), not only what the distribution ships; run `./mvnw -B verify` or
#   `./mvnw -B package -DskipTests` first.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$top"
work=${REPRO_DIR:-$(mktemp -d)}
[ -n "${REPRO_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"

# The sources as git sees them (tracked and untracked, not ignored); outside git, all but builds.
copy_sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard \
      | xargs -0 -r sh -c 'for f; do if [ -e "$f" ]; then printf "%s\0" "$f"; fi; done' sh \
      | tar --null -T - -cf - | tar -xf - -C "$work/src"
  else
    tar --exclude=./.git --exclude=target --exclude=.cifuzz-corpus -cf - . | tar -xf - -C "$work/src"
  fi
}

# What the second build made: the modules' jars, the archive and the container images (jib),
# relative to the tree's top.
artifacts() {
  (cd "$1" && find . -maxdepth 3 -path "*/target/*" \
    \( -name '*.jar' -o -name '*.tar.gz' -o -name '*-image.tar' -o -name '*.deb' \) \
    -newer "$work/stamp" | sort)
}

# A tar's members: listing line (mode, owner, size, time, name) and SHA-256 of the contents.
members() {
  tar -tvf "$1"
  tar -xf "$1" --to-command='sha256sum | sed "s|-\$|$TAR_FILENAME|"'
}

# Which entries of two archives differ: size, time, CRC and name (zip); listing and hashes (tar);
# control fields and listing (deb).
explain() {
  case "$1" in
    *.jar) diff <(unzip -v "$top/$1" | awk 'NR>3 && NF>=8{print $1, $5, $6, $7, $8}') \
                <(unzip -v "$work/src/$1" | awk 'NR>3 && NF>=8{print $1, $5, $6, $7, $8}') | head -20 || true ;;
    *.tar | *.tar.gz) diff <(members "$top/$1") <(members "$work/src/$1") | head -20 || true ;;
    *.deb) diff <(dpkg-deb -I "$top/$1"; dpkg-deb -c "$top/$1") \
                <(dpkg-deb -I "$work/src/$1"; dpkg-deb -c "$work/src/$1") | head -20 || true ;;
  esac
}

copy_sources
# As a checkout made with umask 0002 would be; the archive must not show it.
chmod -R g+w "$work/src"
touch "$work/stamp"
sleep 1
if [ "${REPRO_ALL:-0}" = 1 ]; then
  build=(package -DskipTests -DskipITs -Dfuzz.skip=true)
else
  build=(package -Dmaven.test.skip=true -pl dist -am)
fi
echo "check-reproducible: second build in $work/src: ./mvnw -o ${build[*]}"
(cd "$work/src" && umask 0002 && TZ=Asia/Tokyo ./mvnw -B -q -o "${build[@]}")

same=0
differ=()
for a in $(artifacts "$work/src"); do
  if [ ! -f "$top/$a" ]; then
    echo "check-reproducible: $a is missing here; run ./mvnw -B package (or verify) first" >&2
    exit 2
  fi
  if cmp -s "$top/$a" "$work/src/$a"; then
    same=$((same + 1))
  else
    differ+=("$a")
  fi
done
if [ "$same" -eq 0 ] && [ "${#differ[@]}" -eq 0 ]; then
  echo "check-reproducible: the second build made no artifacts" >&2
  exit 2
fi
for a in "${differ[@]}"; do
  echo "check-reproducible: $a differs between the two builds; its differing entries:" >&2
  explain "$a" >&2
done
if [ "${#differ[@]}" -gt 0 ]; then
  echo "check-reproducible: ${#differ[@]} artifacts differ, $same identical" >&2
  exit 1
fi
echo "check-reproducible: $same artifacts identical"
