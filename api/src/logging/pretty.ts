import type { DestinationStream } from 'pino';

/** What decides between JSON lines and pino-pretty's coloured lines. */
export interface OutputChoice {
  nodeEnv: 'development' | 'production' | 'test';
  /** LOG_PRETTY: '1' asks for pretty lines without a terminal, '0' for JSON on one */
  logPretty?: '0' | '1';
  /** whether stdout is a terminal */
  isTty: boolean;
}

/**
 * Pretty lines for a person at a terminal in development; JSON lines everywhere else, and
 * always in production (a log shipper parses them, and pino-pretty, a dev dependency, may not
 * be installed there).
 * @example wantsPretty({ nodeEnv: 'development', isTty: true }) === true
 */
export function wantsPretty({ nodeEnv, logPretty, isTty }: OutputChoice): boolean {
  if (nodeEnv === 'production' || logPretty === '0') return false;
  return logPretty === '1' || isTty;
}

/**
 * pino-pretty writing to stdout, loaded only when wanted; null when it is not installed
 * (`npm ci --omit=dev`), so the caller falls back to JSON.
 */
export async function prettyDestination(): Promise<DestinationStream | null> {
  try {
    const { default: pretty } = await import('pino-pretty');
    // sync: a line printed just before process.exit must not be lost in a buffer
    return pretty({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
      sync: true,
    });
  } catch {
    return null;
  }
}
