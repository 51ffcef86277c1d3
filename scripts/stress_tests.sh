#!/usr/bin/env bash
# Flake hunt (issue 36 item 7): runs the suite's realtime and isolation tests RUNS times at once
# (default 20), each run one `deno test` process, while busy loops started here keep every core
# loaded. A test that waits for time instead of a fact fails here long before it fails in CI.
# Prints each run's result and every test that failed, with how often; exits 1 on any failure.
#
#   deno task stress                       # 20 runs, one busy loop per core
#   RUNS=5 BURNERS=4 deno task stress      # fewer runs, more load
#   deno task stress tests/realtime/hub_test.ts   # only these files
#
# The tests: every test file that opens WebSockets (TestSocket, sockets(), withServer,
# withServedApp: realtime events and "company B heard nothing") and every one under
# tests/realtime/ and tests/jobs/, unless files are given. Logs stay in $STRESS_DIR (a new
# temporary folder by default).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-20}"
BURNERS="${BURNERS:-$(nproc)}"
RUN_TIMEOUT="${RUN_TIMEOUT:-3600}"
OUT="${STRESS_DIR:-$(mktemp -d -t balcao-stress-XXXXXX)}"
mkdir -p "$OUT"

if [ "$#" -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(
    {
      grep -rlE 'TestSocket|sockets\(|withServer\(|withServedApp\(' tests --include='*_test.ts'
      ls tests/realtime/*_test.ts tests/jobs/*_test.ts
    } | grep -v '^tests/e2e/' | sort -u
  )
fi

burners=()
runs=()
cleanup() {
  # Only what this script started, by process id.
  for pid in "${burners[@]}" "${runs[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

echo "stress: ${#files[@]} test files x $RUNS parallel runs, $BURNERS busy loops; logs in $OUT"
# Type-checked once here, so that the runs do not all check at once.
deno check --lock=tests/deno.lock "${files[@]}" >"$OUT/check.log" 2>&1 || {
  cat "$OUT/check.log"
  exit 1
}

for _ in $(seq 1 "$BURNERS"); do
  (while :; do :; done) &
  burners+=("$!")
done

started=$(date +%s)
# The load to apply is CPU, not disk: the apps' temporary databases go to memory when it can
# (STRESS_TMPDIR), or every fsync of twenty runs queues on one disk. node_modules is used as
# installed (manual): otherwise every process and worker waits for its lock in turn.
tmp="${STRESS_TMPDIR:-$([ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}"
for i in $(seq 1 "$RUNS"); do
  TMPDIR="$tmp" LOG_LEVEL=warn timeout "$RUN_TIMEOUT" deno test --lock=tests/deno.lock -A \
    --no-check --node-modules-dir=manual "${files[@]}" >"$OUT/run-$i.log" 2>&1 &
  runs+=("$!")
done

passed=0
failed_runs=()
for i in $(seq 1 "$RUNS"); do
  if wait "${runs[$((i - 1))]}"; then
    passed=$((passed + 1))
  else
    failed_runs+=("$i")
  fi
done
runs=()
elapsed=$(($(date +%s) - started))

echo "stress: $passed/$RUNS runs passed in ${elapsed}s"
if [ "${#failed_runs[@]}" -eq 0 ]; then
  exit 0
fi
echo "failed runs: ${failed_runs[*]}"
echo "tests that failed (count of runs):"
for i in "${failed_runs[@]}"; do
  # Deno lists failures after its FAILURES banner as "<test name> => <file>:<line>:<col>".
  sed 's/\x1b\[[0-9;]*m//g' "$OUT/run-$i.log" | awk '/ FAILURES /{f=1; next} f && / => /' |
    sed 's/ => .*//' | sort -u
  if ! grep -q 'FAILURES' "$OUT/run-$i.log"; then echo "(run $i: no test failed; see its log)"; fi
done | sort | uniq -c | sort -rn
exit 1
