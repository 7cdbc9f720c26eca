#!/bin/sh
# `npm start`'s first step. Outside production it builds the widget and the console (the API
# runs from its TypeScript sources, scripts/run-entry.sh). With NODE_ENV=production it builds
# nothing (Vite is a dev dependency, pruned from a production install) and refuses to start
# from an incomplete `npm run build`.
set -eu
if [ "${NODE_ENV:-}" != production ]; then
  npm run build:widget
  npm run build:console
  exit 0
fi
for built in dist/api/src/main.js dist/widget/widget.js dist/console/index.html; do
  if [ ! -f "$built" ]; then
    echo "[heed] cannot start: $built is missing; run npm run build first (with dev dependencies installed), see docs/operators/deploy.md" >&2
    exit 1
  fi
done
