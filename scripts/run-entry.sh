#!/bin/sh
# Runs one of Heed's entry points for the npm scripts (`npm start`, `npm run worker`,
# `npm run db:migrate`, …), from the repository folder as npm runs scripts:
#   sh scripts/run-entry.sh api/src/main.ts [arguments…]
#
# Outside production: the TypeScript source through tsx, as a developer edits it.
# With NODE_ENV=production: the JavaScript `npm run build` compiled into dist/
# (api/src/main.ts → dist/api/src/main.js), which needs no dev dependency, so it runs after
# `npm prune --omit=dev` (docs/operators/deploy.md). `exec`: signals reach Node itself.
set -eu
entry=$1
shift
if [ "${NODE_ENV:-}" = production ]; then
  compiled="dist/${entry%.ts}.js"
  if [ ! -f "$compiled" ]; then
    echo "[heed] cannot start: $compiled is missing; run npm run build first (with dev dependencies installed), see docs/operators/deploy.md" >&2
    exit 1
  fi
  exec node --enable-source-maps "$compiled" "$@"
fi
exec node --import tsx "$entry" "$@"
