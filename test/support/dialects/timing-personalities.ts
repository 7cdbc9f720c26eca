import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Personality } from './dialect-server.ts';
import { chunk, event, openStream } from './sse.ts';

/** Writes an SSE comment every `everyMs` until `ms` passed (or for ever), as OpenRouter does while a model thinks. */
async function keepAlive(res: ServerResponse, everyMs: number, ms = Number.POSITIVE_INFINITY): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && !res.destroyed) {
    res.write(': OPENROUTER PROCESSING\n\n');
    await delay(everyMs);
  }
}

/** Servers whose pauses are life, not a hang, and one whose life is only pauses. */
export const timingPersonalities = {
  /** keep-alive comments while thinking before the first word, and again between two words */
  keepAlivesWhileThinking: (async (res) => {
    openStream(res);
    event(res, chunk({ role: 'assistant', content: '' }));
    await keepAlive(res, 100, 2000);
    event(res, chunk({ content: 'We open' }));
    await keepAlive(res, 100, 2000);
    event(res, chunk({ content: ' at nine.' }));
    event(res, chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }) satisfies Personality,

  /** no byte at all for two seconds before the first word (a reasoning model behind a quiet server) */
  silentThinker: (async (res) => {
    openStream(res);
    await delay(2000);
    event(res, chunk({ role: 'assistant', content: 'We open at nine.' }));
    event(res, chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }) satisfies Personality,

  /** only keep-alives, never a token */
  onlyKeepAlives: (async (res) => {
    openStream(res);
    await keepAlive(res, 100);
  }) satisfies Personality,
};
