# Shared helpers for FirstSeen's scripts. Sourced, not run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCAL="$ROOT/.local"
BOOTSTRAP="${FIRSTSEEN_BOOTSTRAP:-127.0.0.1:19092}"
MVN=(mvn -B -ntp -q -Dstyle.color=never)

log() { printf '%s\n' "$*" >&2; }

need_java() {
  command -v java >/dev/null || { log "java (17+) is not on PATH"; exit 1; }
  command -v mvn >/dev/null || { log "mvn (3.8.6+) is not on PATH"; exit 1; }
}

# Builds the job jar, the tools (src/tools, compiled with the tests but not run) and the local
# classpath when a source or the pom changed.
ensure_build() {
  need_java
  local stamp="$ROOT/target/.firstseen-built"
  if [[ ! -f "$stamp" || ! -f "$ROOT/target/classpath.txt" ]] \
     || [[ -n "$(find "$ROOT/src" "$ROOT/pom.xml" -newer "$stamp" -print -quit)" ]]; then
    log "building FirstSeen (mvn package, tests compiled but not run)..."
    (cd "$ROOT" && "${MVN[@]}" package -DskipTests >&2 \
      && "${MVN[@]}" dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >&2)
    touch "$stamp"
  fi
}

# Classpath for running the job and the tools locally: the job's classes, the tools' (they are
# not in the job jar), Flink, Kafka and the test-scope libraries the tools use.
job_cp() {
  printf '%s:%s:%s' "$ROOT/target/classes" "$ROOT/target/test-classes" \
    "$(cat "$ROOT/target/classpath.txt")"
}

# worktree_checkout DIR COMMIT: COMMIT checked out, detached, in the git worktree DIR (whatever was
# there before removed first); exits with a message if git cannot. worktree_remove DIR undoes it.
worktree_checkout() {
  worktree_remove "$1"
  git -C "$ROOT" worktree add --detach "$1" "$2" >/dev/null 2>"$1.log" \
    || { log "could not check out $2 in $1:"; cat "$1.log" >&2; rm -f "$1.log"; exit 1; }
  rm -f "$1.log"
}

worktree_remove() {
  git -C "$ROOT" worktree remove --force "$1" 2>/dev/null || rm -rf "$1"
  git -C "$ROOT" worktree prune
}

# run_tool MAIN ARGS...: a dev.firstseen.tools class; heap $TOOL_HEAP (default 512m).
run_tool() {
  local main="$1"; shift
  java "-Xmx${TOOL_HEAP:-512m}" -cp "$(job_cp)" "dev.firstseen.tools.$main" "$@"
}

# The local Flink cluster (scripts/cluster) and Flink's CLI against it (scripts/flink).
FLINK_DIR="$LOCAL/flink"
FLINK_LIB="$FLINK_DIR/lib"
FLINK_REST_PORT="${FIRSTSEEN_REST_PORT:-18081}"

# Resolves the cluster's lib/ from scripts/flink-cluster/pom.xml, plus FirstSeen's Prometheus reporter.
ensure_flink_lib() {
  # Builds only if the reporter's classes are missing: a TaskManager started mid-test (say after
  # a kill) must not wait for a rebuild of the job.
  [[ -f "$ROOT/target/test-classes/dev/firstseen/metrics/prometheus/PrometheusReporterFactory.class" ]] \
    || ensure_build
  local stamp="$FLINK_LIB/.resolved"
  if [[ ! -f "$stamp" || "$ROOT/scripts/flink-cluster/pom.xml" -nt "$stamp" ]]; then
    log "resolving the Flink cluster's jars from Maven Central..."
    rm -rf "$FLINK_LIB"
    (cd "$ROOT/scripts/flink-cluster" && "${MVN[@]}" dependency:copy-dependencies \
      -DoutputDirectory="$FLINK_LIB" -DincludeScope=runtime >&2)
    touch "$stamp"
  fi
  local reporter="$FLINK_LIB/firstseen-prometheus-reporter.jar"
  local factory="dev/firstseen/metrics/prometheus/PrometheusReporterFactory.class"
  if [[ ! -f "$reporter" || "$ROOT/target/test-classes/$factory" -nt "$reporter" ]] \
     || ! jar tf "$reporter" 2>/dev/null | grep -q "$factory"; then
    [[ -f "$ROOT/target/test-classes/$factory" ]] \
      || { log "target/test-classes has no $factory: run mvn package -DskipTests"; exit 1; }
    (cd "$ROOT/target/test-classes" && jar cf "$reporter" dev/firstseen/metrics/prometheus \
      META-INF/services/org.apache.flink.metrics.reporter.MetricReporterFactory)
  fi
  mkdir -p "$FLINK_DIR/run" "$FLINK_DIR/log" "$FLINK_DIR/tmp" "$FLINK_DIR/upload" "$FLINK_DIR/plugins"
}

flink_java_opts() {
  sed -n 's/^env\.java\.opts\.all:[[:space:]]*//p' "$ROOT/flink-conf/config.yaml"
}

