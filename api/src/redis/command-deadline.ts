import { setMaxListeners } from 'node:events';

/** How long a command may wait for Redis: node-redis' own default (`DEFAULT_COMMAND_TIMEOUT`), kept. */
export const COMMAND_DEADLINE_MS = 5_000;

/** A signal is renewed at least this often: a command fails 5.00–5.25 s after it was sent. */
const SLOT_MS = 250;

/**
 * At most this many reads of the signal (one or two a command) share it. Node's EventTarget adds
 * a listener after a walk over those already there (it looks for a duplicate), and node-redis
 * adds one per command until the command is written: a burst of thousands on one signal (a
 * worker catching up after a stall) cost their square, 8.7 % of the fan-out bench's publisher.
 */
const USES_PER_SIGNAL = 32;

/** The reason an expired signal carries (given, so that no DOMException is built per abort). */
const EXPIRED = new Error('redis command deadline passed');

/** The part of a node-redis client this module reaches: the options every command merges in. */
interface CommandOptionsHolder {
  _commandOptions?: { timeout?: number; abortSignal?: AbortSignal };
  on(event: 'end', listener: () => void): unknown;
}

/**
 * Bounds every command of a node-redis client by abort signals shared by up to 32 commands and
 * renewed every 250 ms, in place of the client's per-command timeout. node-redis gives each
 * command an `AbortSignal.timeout()` of its own: a timer, and a DOMException built with its stack
 * when the timer fires five seconds later, answered or not. Measured here (200,000 PUBLISHes
 * through `createRedis`): 19–28 µs of CPU per command with it at 50 in flight and 40 at 5,000;
 * 7.6 and 13 with these signals; 3.3–4.3 with no bound at all. The worker relays a reply's deltas
 * one command each: at 10,000 deltas/s that was a fifth of a core.
 *
 * The bound itself stays as node-redis had it: a command that cannot be written (Redis away, the
 * client reconnecting) fails after five seconds, now as node-redis' `AbortError`, where it would
 * otherwise wait for Redis's return. Like node-redis' own, the bound ends once the command is
 * written: a command already on the wire waits for its answer or the socket's end.
 *
 * The client must be created with `commandOptions: { timeout: 0 }`. Its `_commandOptions` (an
 * internal of node-redis 6, which every command spreads into its own options) gets a getter for
 * the current signal; start-up fails if that internal is missing. Clients derived with
 * `withCommandOptions` and the like would copy one signal for good: Heed makes none.
 */
export function boundCommands(client: CommandOptionsHolder): void {
  const options = client._commandOptions;
  if (options?.timeout !== 0) throw new Error('boundCommands needs a node-redis client created with commandOptions: { timeout: 0 }');
  // each signal is aborted once its last command has waited the whole deadline, timed from when
  // the next signal replaced it (a late tick leaves a signal open longer, never shorter)
  const signals: { controller: AbortController; closedAt?: number }[] = [];
  let current: AbortSignal;
  let uses = 0;
  const open = () => {
    const last = signals.at(-1);
    if (last) last.closedAt = performance.now();
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    signals.push({ controller });
    current = controller.signal;
    uses = 0;
  };
  const expire = () => {
    const now = performance.now();
    while (signals[0]?.closedAt !== undefined && now - signals[0].closedAt >= COMMAND_DEADLINE_MS)
      signals.shift()!.controller.abort(EXPIRED);
  };
  open();
  // every command spreads these options into its own, reading the signal once or twice
  Object.defineProperty(options, 'abortSignal', {
    enumerable: true,
    get: () => {
      if (++uses > USES_PER_SIGNAL) open();
      return current;
    },
  });
  const ticker = setInterval(() => (open(), expire()), SLOT_MS);
  ticker.unref();
  client.on('end', () => clearInterval(ticker));
}
