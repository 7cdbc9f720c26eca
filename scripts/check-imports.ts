/**
 * The import rules CI keeps (run by `npm run lint`, exits 1 on any breach):
 *
 * 1. No import cycles in api/ or widget/, type-only imports included: Biome's `noImportCycles`
 *    (configured in biome.jsonc) walks the module graph.
 * 2. The widget reaches the server only through `type` imports (erased from the bundle) and the
 *    pure modules of `api/src/shared/`; those modules in turn import nothing outside that folder,
 *    so no server code can ride into the bundle behind them.
 * 3. The console (console/) keeps the same rule towards api/, and takes from the widget only
 *    its presentational pieces and its wire (`CONSOLE_FROM_WIDGET`), never the widget's store
 *    or its visitor-facing elements.
 * 4. The API's domain code does not know its transport: no file of api/src outside the transport
 *    layer (`TRANSPORT`: api/src/trpc/, api/src/http/, and the entry points that wire them up)
 *    imports api/src/trpc/ or `@trpc/server`, types included. Domain code refuses with
 *    api/src/errors/refusal.ts; the transport answers it (trpc/refusal.ts, http/errors.ts).
 *
 * @example npx tsx scripts/check-imports.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = 'api/src/shared/';
const SOURCE = /\.(ts|js|mjs)$/;
/** What the console may import from the widget as values: elements that draw, and the tRPC wire. */
const CONSOLE_FROM_WIDGET = ['widget/src/conversation-row/', 'widget/src/heading/', 'widget/src/shared/', 'widget/src/state/trpc-wire.ts'];
/** The API's transport layer and entry points: the only files of api/src that may import tRPC (rule 4). */
const TRANSPORT = [
  'api/src/trpc/',
  'api/src/http/',
  'api/src/main.ts',
  'api/src/worker-main.ts',
  'api/src/migrate-main.ts',
  'api/src/boot.ts',
];
/** What rule 4 keeps domain code from importing. */
const isTrpc = (target: string) => target.startsWith('api/src/trpc/') || target === '@trpc/server' || target.startsWith('@trpc/server/');

interface Import {
  file: string;
  line: number;
  /** the imported module, relative to the repository root (or the bare package name) */
  target: string;
  typeOnly: boolean;
}

/** Every static, re-export and dynamic import of one file, with whether it is erased at compile time. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier)) return;
    const spec = specifier.text;
    const target = spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec;
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, isTypeOnlyExport(node));
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false);
    else if (ts.isImportTypeNode(node)) add(node, ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `import type …`, or `import { type A, type B }` with nothing else (elided by the compiler). */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** The boundary breaches: widget value imports from api/ outside shared/, and shared/ reaching out. */
function boundaryBreaches(): string[] {
  const breaches: string[] = [];
  for (const imp of sourceFiles('widget').flatMap(importsOf)) {
    if (imp.typeOnly || !imp.target.startsWith('api/') || imp.target.startsWith(SHARED)) continue;
    breaches.push(
      `${imp.file}:${imp.line}: the widget imports a value from ${imp.target}; use \`import type\`, or move the pure piece to ${SHARED}`,
    );
  }
  for (const imp of sourceFiles('console').flatMap(importsOf)) {
    if (imp.typeOnly) continue;
    if (imp.target.startsWith('api/') && !imp.target.startsWith(SHARED)) {
      breaches.push(
        `${imp.file}:${imp.line}: the console imports a value from ${imp.target}; use \`import type\`, or move the pure piece to ${SHARED}`,
      );
    }
    if (imp.target.startsWith('widget/') && !CONSOLE_FROM_WIDGET.some((allowed) => imp.target.startsWith(allowed))) {
      breaches.push(
        `${imp.file}:${imp.line}: the console imports ${imp.target}; it may take only ${CONSOLE_FROM_WIDGET.join(', ')} from the widget`,
      );
    }
  }
  for (const imp of sourceFiles(SHARED).flatMap(importsOf)) {
    if (imp.typeOnly || imp.target.startsWith(SHARED) || imp.target === 'vitest') continue;
    breaches.push(`${imp.file}:${imp.line}: ${SHARED} must stay self-contained (the widget bundles it) but imports ${imp.target}`);
  }
  for (const imp of sourceFiles('api/src').flatMap(importsOf)) {
    if (TRANSPORT.some((allowed) => imp.file.startsWith(allowed)) || !isTrpc(imp.target)) continue;
    breaches.push(
      `${imp.file}:${imp.line}: domain code imports ${imp.target}; refuse with api/src/errors/refusal.ts and leave the transport to ${TRANSPORT.slice(0, 2).join(' and ')}`,
    );
  }
  return breaches;
}

function cyclesFound(): boolean {
  const biome = join(ROOT, 'node_modules/.bin/biome');
  const run = spawnSync(biome, ['lint', '--only=suspicious/noImportCycles', '--max-diagnostics=50', 'api', 'widget', 'console'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.error) throw run.error;
  return run.status !== 0;
}

const cycles = cyclesFound();
const breaches = boundaryBreaches();
for (const line of breaches) console.error(line);
if (cycles || breaches.length > 0) {
  console.error(`check-imports: ${cycles ? 'import cycles (above)' : 'no cycles'}, ${breaches.length} boundary breach(es)`);
  process.exit(1);
}
console.log(
  'check-imports: no cycles in api/, widget/ or console/; widget and console reach api/ only through types and api/src/shared/; domain code does not import tRPC',
);
