import type { DestinationStream } from 'pino';

/**
 * A pino destination that keeps every line in memory, as written (JSON, redacted): tests
 * search exactly what production would have printed.
 * @example const sink = memoryDestination(); createLogger('info', sink); sink.lines[0]
 */
export function memoryDestination(): DestinationStream & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') lines.push(line);
    },
  };
}
