/**
 * What of an error may reach a log line: its kind, its code or HTTP status, and the first
 * line of its message, cut short. Never the rest: a Prisma error's message prints the
 * query's arguments (a visitor's message text), a provider error may echo the prompt, and
 * a stack or `cause` chain can carry either.
 *
 * @example describeError(new Error('boom\nsecret detail')) === 'Error: boom'
 */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return typeof err === 'string' ? cut(err) : `non-error ${typeof err}`;
  const e = err as Error & { code?: unknown; status?: unknown };
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? ` ${e.code}` : '';
  const status = typeof e.status === 'number' ? ` (HTTP ${e.status})` : '';
  // Prisma's errors carry the invocation with its data in the message, and a provider's
  // HTTP error may echo the prompt: their code and status say enough.
  const message = e.name.startsWith('PrismaClient') || status ? '' : `: ${cut(e.message)}`;
  return `${e.name}${code}${status}${message}`;
}

const MAX = 160;

function cut(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > MAX ? `${line.slice(0, MAX)}…` : line;
}
