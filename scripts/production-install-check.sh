#!/usr/bin/env bash
# The production install of docs/operators/deploy.md, checked on a clean copy of this repository:
#
#   npm ci && npm run build && npm prune --omit=dev
#   NODE_ENV=production npm run db:migrate
#   NODE_ENV=production npm start           (and npm run worker, npm run admin:create)
#
# then asserts that the dev dependencies are gone (tsx, vite, vitest, biome, lit),
# that production reads no TypeScript source (api/, widget/ and console/ are removed from the
# copy after the build), and that the started API answers /healthz, /readyz, /widget.js, /admin/
# and the demo shop's page. Uses the PostgreSQL and Redis servers on 127.0.0.1 (a fresh database
# and a Redis prefix of its own, both removed at the end). Run by .ci/run; takes about a minute
# when npm's cache is warm.
#
#   bash scripts/production-install-check.sh
set -euo pipefail
unset NODE_ENV # an inherited NODE_ENV=production would make `npm ci` omit the build's dev dependencies

source_dir=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/heed-production-check.XXXXXX")
app="$work/heed"
run_id="$$_$RANDOM"
database="heed_prodcheck_$run_id"
redis_prefix="heed-prodcheck-$run_id:"
started_groups=() # process groups this check started (setsid), stopped by cleanup if still there
started=$SECONDS

step() { printf '\n-- production check: %s (%ss)\n' "$*" "$((SECONDS - started))"; }
fail() {
  echo "production check FAILED: $*" >&2
  if [[ -f "$work/server.log" ]]; then
    echo "-- last lines of the server's log:" >&2
    tail -n 40 "$work/server.log" >&2
  fi
  exit 1
}
cleanup() {
  for group in "${started_groups[@]}"; do
    kill -KILL -- "-$group" 2>/dev/null || true
  done
  psql -h 127.0.0.1 -U postgres -d postgres -qAt -c "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -h 127.0.0.1 --scan --pattern "$redis_prefix*" 2>/dev/null | xargs -r redis-cli -h 127.0.0.1 del >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# stop GROUP LOG NAME: SIGTERM to the process group, as systemd (KillMode=control-group) and
# Procfile platforms do; Heed must log its shutdown and be gone within 30 s. npm's own status is
# not asserted: npm answers a SIGTERM of its own with 143 even when Node exits 0.
stop() {
  kill -TERM -- "-$1"
  for ((i = 0; i < 60; i++)); do
    kill -0 -- "-$1" 2>/dev/null || break
    sleep 0.5
  done
  ! kill -0 -- "-$1" 2>/dev/null || fail "$3 did not stop within 30 s of SIGTERM"
  wait "$1" || true
  grep -q '"msg":"shutting down"' "$2" || fail "$3 logged no shutdown"
  ! grep -q 'shutdown failed' "$2" || fail "$3: shutdown failed"
}

# http_get URL: prints the status (000 when nothing answers) on the first line, then the body
http_get() {
  node -e '
    fetch(process.argv[1], { redirect: "manual", signal: AbortSignal.timeout(5000) })
      .then(async (r) => process.stdout.write(`${r.status}\n${await r.text()}`))
      .catch(() => process.stdout.write("000\n"));' "$1"
}
random_hex() { node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))'; }
free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { process.stdout.write(String(s.address().port)); s.close(); })'; }

step "copy of $source_dir without what .gitignore names (node_modules, dist, generated sources)"
if command -v rsync >/dev/null; then
  rsync -a --exclude=.git --filter=':- .gitignore' "$source_dir/" "$app/"
else
  mkdir -p "$app" && git -C "$source_dir" archive HEAD | tar -x -C "$app" # the last commit, without rsync
fi
cd "$app"
[[ ! -e node_modules && ! -e dist && ! -e api/src/db/generated ]] || fail "the copy is not clean"

step "npm ci (node $(node --version))"
npm ci --no-audit --no-fund --loglevel=error

step "npm run build"
npm run build --silent >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "npm run build"; }
for built in dist/api/src/main.js dist/api/src/worker-main.js dist/api/src/migrate-main.js dist/scripts/admin-create.js dist/widget/widget.js dist/console/index.html; do
  [[ -f "$built" ]] || fail "npm run build did not write $built"
done

step "npm prune --omit=dev"
npm prune --omit=dev --no-audit --no-fund --loglevel=error
# Not asserted: typescript (a peer dependency of @trpc/server, which npm installs) and the prisma
# CLI (an optional peer of @prisma/client, which npm keeps once installed); production runs neither.
for dev_only in tsx vite vitest @biomejs/biome lit; do
  [[ ! -e "node_modules/$dev_only" ]] || fail "node_modules/$dev_only is still installed after npm prune --omit=dev"
done
# production runs dist/ alone: nothing may still import a TypeScript source
rm -rf api widget console

step "NODE_ENV=production npm run db:migrate"
export NODE_ENV=production
export DATABASE_URL="postgresql://postgres@127.0.0.1:5432/$database"
export REDIS_URL="redis://127.0.0.1:6379" REDIS_PREFIX="$redis_prefix"
export HEED_SECRET="$(random_hex)" ADMIN_TOKEN="$(random_hex)" CRON_SECRET="$(random_hex)"
export HEED_DEMO_MODEL=1 DEMO_SITE_KEY=demo HOST=127.0.0.1 LOG_LEVEL=info
PORT=$(free_port)
DEMO_PORT=$(free_port)
while [[ "$DEMO_PORT" == "$PORT" ]]; do DEMO_PORT=$(free_port); done
export PORT DEMO_PORT
migrated=$(npm run --silent db:migrate 2>&1) || fail "npm run db:migrate: $migrated"
grep -q 'migrate: done' <<<"$migrated" || fail "npm run db:migrate said: $migrated"

step "NODE_ENV=production npm run admin:create"
created=$(printf '%s\n' "$(random_hex)" | npm run --silent admin:create -- --email owner@example.com 2>&1) || fail "npm run admin:create: $created"
grep -q 'console owner owner@example.com' <<<"$created" || fail "npm run admin:create said: $created"

step "NODE_ENV=production npm start on :$PORT (demo shop :$DEMO_PORT)"
# its own process group (setsid), so the check stops npm and Node together and nothing else
setsid npm start >"$work/server.log" 2>&1 &
server_pid=$!
started_groups+=("$server_pid")
base="http://127.0.0.1:$PORT"
for ((i = 0; i < 120; i++)); do
  [[ "$(http_get "$base/readyz" | head -n 1)" == 200 ]] && break
  kill -0 "$server_pid" 2>/dev/null || fail "npm start exited before /readyz answered 200"
  sleep 0.5
done
[[ "$(http_get "$base/readyz" | head -n 1)" == 200 ]] || fail "/readyz did not answer 200 within 60 s"

# fetch URL EXPECTED-STATUS [TEXT-IN-BODY]
fetch() {
  local answer status body
  answer=$(http_get "$1")
  status=${answer%%$'\n'*}
  body=${answer#*$'\n'}
  [[ "$status" == "$2" ]] || fail "GET $1 answered $status, not $2"
  [[ -z "${3:-}" || "$body" == *"$3"* ]] || fail "GET $1: the body lacks '$3'"
  echo "   GET $1 → $status"
}
fetch "$base/healthz" 200
fetch "$base/readyz" 200 '"db":true'
fetch "$base/widget.js" 200 'widget-chunks/boot-'
fetch "$base/widget.js.map" 404 # source maps stay private in production
fetch "$base/admin/" 200 '/admin/assets/index-'
fetch "http://127.0.0.1:$DEMO_PORT/" 200 'data-site="demo"'
grep -q '"msg":"API listening on ' "$work/server.log" || fail "the server's log has no JSON 'API listening' line"

step "NODE_ENV=production npm run worker"
setsid npm run worker >"$work/worker.log" 2>&1 &
worker_pid=$!
started_groups+=("$worker_pid")
for ((i = 0; i < 60; i++)); do
  grep -q 'worker started' "$work/worker.log" && break
  kill -0 "$worker_pid" 2>/dev/null || { cat "$work/worker.log"; fail "npm run worker exited"; }
  sleep 0.5
done
grep -q 'worker started' "$work/worker.log" || { cat "$work/worker.log"; fail "npm run worker did not start within 30 s"; }
stop "$worker_pid" "$work/worker.log" "npm run worker"

step "stop (SIGTERM)"
stop "$server_pid" "$work/server.log" "npm start"

step "passed"
