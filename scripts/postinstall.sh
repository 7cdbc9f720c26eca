#!/bin/sh
# After `npm install` / `npm ci`: generates the Prisma client the TypeScript sources import
# (api/src/db/generated, `npm run db:generate`). An install without dev dependencies
# (`npm ci --omit=dev`) has no prisma CLI and needs no generated sources: production runs the
# JavaScript in dist/, where `npm run build` compiled the client in.
set -eu
if [ -x node_modules/.bin/prisma ]; then
  exec npm run db:generate
fi
echo "[heed] postinstall: no prisma CLI (dev dependencies omitted), so no client generated; production runs the build in dist/"
