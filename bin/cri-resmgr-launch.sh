# Shared by the bin/ launchers; sourced, not run. Finds the jars either in a distribution tree
# (bin/../lib) or in a source checkout after "./mvnw package" (<module>/target), then runs Java.
# Environment: JAVA (java binary, default "java"), JAVA_OPTS (extra JVM options).
launch() {
  local module=$1 main=$2
  shift 2
  local here top cp
  here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[1]}")")" && pwd)
  top=$(dirname "$here")
  if [ -d "$top/lib" ]; then
    cp="$top/lib/*"
  elif [ -d "$top/$module/target/lib" ]; then
    cp=$(ls "$top/$module"/target/cri-resmgr-"$module"-*.jar 2>/dev/null | grep -v -e '-tests.jar' | head -n 1)
    cp="$cp:$top/$module/target/lib/*"
  else
    echo "$(basename "$0"): no build found; run ./mvnw -DskipTests package in $top first" >&2
    exit 1
  fi
  # A small node daemon: serial GC and a small initial heap keep the resident set near 110 MB
  # (the JVM's defaults size the heap from the host's memory). JAVA_OPTS comes last and wins.
  # -XX:TieredStopAtLevel=1 would start faster but the relay is long-running and wants C2.
  # -XX:+ExitOnOutOfMemoryError: a thread killed by OutOfMemoryError leaves a half-alive daemon;
  # exiting lets the service manager restart it into a consistent state (docs/files.md).
  exec "${JAVA:-java}" -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError -Xms16m -Xmx512m -Xss512k \
    ${JAVA_OPTS:-} \
    -cp "$cp" "$main" "$@"
}
