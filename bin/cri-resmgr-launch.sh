# Shared by the bin/ launchers; sourced, not run. Finds the jars either in a distribution tree
# (bin/../lib) or in a source checkout after "./mvnw package" (<module>/target), checks the Java
# version, then runs Java.
# Environment: JAVA (java binary, default "java" on the PATH), JAVA_OPTS (extra JVM options),
# CDS_ARCHIVE (class data sharing archive to map if it exists, "none" for none; the daemon's
# launcher defaults it to /var/cache/cri-resmgr/cri-resmgr.jsa, made by cri-resmgr-cds).
launch() {
  local module=$1 main=$2
  shift 2
  local here top cp java cds=() trim=() native=()
  here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[1]}")")" && pwd)
  top=$(dirname "$here")
  if [ -d "$top/lib" ]; then
    cp="$top/lib/*"
    # netty's epoll library, unpacked by the build: loaded from here, netty does not unpack it
    # into /tmp on every start, which fails where /tmp is mounted noexec (docs/packages.md).
    if [ -d "$top/lib/native" ]; then
      native=("-Djava.library.path=$top/lib/native")
    fi
  elif [ -d "$top/$module/target/lib" ]; then
    cp=$(ls "$top/$module"/target/cri-resmgr-"$module"-*.jar 2>/dev/null | grep -v -e '-tests.jar' | head -n 1)
    cp="$cp:$top/$module/target/lib/*"
  else
    echo "$(basename "$0"): no build found; run ./mvnw -DskipTests package in $top first" >&2
    exit 1
  fi
  java=${JAVA:-java}
  check_java "$java"
  # Memory the C heap (malloc) holds after the compilers or native libraries freed it stays
  # resident unless the JVM gives it back: trimming every 10 s kept the daemon 20-30 MB smaller
  # under kubelet's polling (docs/benchmarks.md, "Kubelet-like polling and resident memory").
  if trims_native_heap "$java_release"; then
    trim=(-XX:TrimNativeHeapInterval=10000)
  fi
  if [ -n "${CDS_ARCHIVE:-}" ] && [ "$CDS_ARCHIVE" != none ] && [ -r "$CDS_ARCHIVE" ]; then
    cds=("-XX:SharedArchiveFile=$CDS_ARCHIVE")
  fi
  # A small node daemon: serial GC and a small initial heap keep the resident set near 110 MB
  # (the JVM's defaults size the heap from the host's memory). JAVA_OPTS comes last and wins.
  # -XX:CompileThresholdScaling=3: methods are compiled after three times the usual number of
  # calls. At start-up most code runs a few times only, and compiling it took as much CPU as
  # running it: this cuts the CPU time to serving by a quarter; code that stays hot (the relay,
  # the policies) is still compiled by C1 and C2, a little later (docs/benchmarks.md, "Start-up").
  # -XX:TieredStopAtLevel=1 would start faster still but gives up C2 for good.
  # The CompileCommands undo that for gRPC and netty, whose per-call code kubelet's polling runs
  # a few times a second only: at three times the thresholds it stayed interpreted or profiled
  # for minutes, and the relay thread used twice the CPU (docs/benchmarks.md, "Issue 20: the
  # polled relay"); at a tenth they are compiled early, for about 60 ms more CPU at start-up.
  # "quiet" first: otherwise the JVM prints each CompileCommand on standard output.
  # -XX:+ExitOnOutOfMemoryError: a thread killed by OutOfMemoryError leaves a half-alive daemon;
  # exiting lets the service manager restart it into a consistent state (docs/files.md).
  # -Dio.netty.allocator.numDirectArenas=1: one pool of direct buffers for the few transport
  # threads instead of one per thread, each holding its own chunks (7 MB less resident).
  # -XX:-UsePerfData: no hsperfdata file, so no sampling of its counters every 50 ms; that was
  # 0.07-0.13% of a core, idle or polled (docs/benchmarks.md, "Polling: JVM flags"). jcmd PID
  # still works; jps and jstat no longer list the process. The images have it too.
  exec "$java" -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError -XX:CompileThresholdScaling=3 \
    -XX:CompileCommand=quiet '-XX:CompileCommand=CompileThresholdScaling,io/grpc/*.*,0.1' \
    '-XX:CompileCommand=CompileThresholdScaling,io/netty/*.*,0.1' \
    -XX:-UsePerfData -Xms16m -Xmx512m -Xss512k -Dio.netty.allocator.numDirectArenas=1 \
    "${trim[@]}" "${cds[@]}" "${native[@]}" ${JAVA_OPTS:-} \
    -cp "$cp" "$main" "$@"
}

# Exits with a clear message unless $1 is a Java 17 or newer, and sets java_release to its
# version. The version comes from the runtime's release file (no JVM start) or else from
# "java -version"; an unknown one is let be.
check_java() {
  local java=$1 path version major
  if ! path=$(command -v "$java" 2>/dev/null); then
    echo "$(basename "$0"): no Java runtime: \"$java\" is not found; install Java 17 or newer" \
      "(Debian: apt install openjdk-17-jre-headless) or set JAVA to its java binary" >&2
    exit 1
  fi
  version=$(java_version "$path")
  java_release=$version
  major=${version%%[._+-]*}
  if [ "$major" = 1 ]; then # 1.8.0_392 is Java 8
    major=${version#1.}
    major=${major%%[._+-]*}
  fi
  if [ -n "$major" ] && [ "$major" -eq "$major" ] 2>/dev/null && [ "$major" -lt 17 ]; then
    echo "$(basename "$0"): needs Java 17 or newer, but $path is Java $version; install" \
      "openjdk-17-jre-headless or set JAVA to a Java 17 or newer java binary" >&2
    exit 1
  fi
}

# Whether Java $1 (e.g. 17.0.15) has -XX:TrimNativeHeapInterval as a product option: 17.0.11
# and later 17 updates, 21.0.3 and later, 22.0.1 and later (before, it was experimental or missing).
trims_native_heap() {
  local major minor update
  IFS=._+- read -r major minor update _ <<<"$1.0.0"
  [[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ && $update =~ ^[0-9]+$ ]] || return 1
  case $major in
    17) [ "$update" -ge 11 ] ;;
    21) [ "$update" -ge 3 ] ;;
    22) [ "$minor" -gt 0 ] || [ "$update" -ge 1 ] ;;
    *) [ "$major" -ge 23 ] ;;
  esac
}

# The version of the java binary $1, e.g. 17.0.15, or nothing if it cannot be told.
java_version() {
  local release line
  release="$(dirname "$(dirname "$(readlink -f "$1")")")/release"
  if [ -r "$release" ]; then
    line=$(grep -m 1 '^JAVA_VERSION=' "$release" 2>/dev/null || true)
  fi
  if [ -z "${line:-}" ]; then
    line=$("$1" -version 2>&1 | grep -m 1 ' version "' || true)
  fi
  line=${line#*\"}
  echo "${line%%\"*}"
}
