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

# run_tool MAIN ARGS...: a dev.firstseen.tools class; heap $TOOL_HEAP (default 512m).
run_tool() {
  local main="$1"; shift
  java "-Xmx${TOOL_HEAP:-512m}" -cp "$(job_cp)" "dev.firstseen.tools.$main" "$@"
}
