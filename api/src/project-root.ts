import { fileURLToPath } from 'node:url';

/**
 * The repository's folder (ending in `/`), where the files Heed reads at run time live:
 * `prisma/migrations`, the built `dist/widget` and `dist/console`. The same folder whether
 * this module runs from its TypeScript source (`api/src/project-root.ts`, through tsx or
 * vitest) or as the JavaScript `npm run build` compiles into `dist/api/src/project-root.js`,
 * one level deeper, which production runs (docs/operators/deploy.md).
 *
 * @example const widgetDir = `${PROJECT_ROOT}dist/widget`;
 */
export const PROJECT_ROOT = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../' : '../../../', import.meta.url));
