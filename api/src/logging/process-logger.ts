import type { DestinationStream } from 'pino';
import type { Config } from '../config.ts';
import { createLogger, type Logger } from './logger.ts';
import { prettyDestination, wantsPretty } from './pretty.ts';

/**
 * The root logger of a Heed process as its configuration asks: LOG_LEVEL, and JSON lines on
 * stdout unless pretty lines are wanted (pretty.ts). `destination` overrides where lines go
 * (tests collect them in memory).
 * @example const logger = await processLogger(config); logger.info('API listening')
 */
export async function processLogger(
  config: Pick<Config, 'NODE_ENV' | 'LOG_LEVEL' | 'LOG_PRETTY'>,
  destination?: DestinationStream,
): Promise<Logger> {
  if (destination) return createLogger(config.LOG_LEVEL, destination);
  const pretty = wantsPretty({ nodeEnv: config.NODE_ENV, logPretty: config.LOG_PRETTY, isTty: process.stdout.isTTY === true });
  return createLogger(config.LOG_LEVEL, (pretty && (await prettyDestination())) || undefined);
}
