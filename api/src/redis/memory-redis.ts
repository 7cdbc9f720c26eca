import { EXTEND_LOCK, RELAY_TEXT, RELEASE_LOCK } from './scripts.ts';

type Listener = (message: string, channel: string) => void;
type SetOptions = { condition?: 'NX' | 'XX'; expiration?: { type: 'PX' | 'EX'; value: number } };
type EvalOptions = { keys?: string[]; arguments?: string[] };

/**
 * The keys and channels of one in-process "Redis": what every client made for the same
 * `memory://<name>` URL shares, as clients of one server do.
 */
class MemoryStore {
  readonly values = new Map<string, { value: string; expiresAt: number | null }>();
  readonly channels = new Map<string, Set<Listener>>();

  read(key: string): string | null {
    const entry = this.values.get(key);
    if (!entry) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.values.delete(key);
      return null;
    }
    return entry.value;
  }

  write(key: string, value: string, ttlMs: number | null): void {
    this.values.set(key, { value, expiresAt: ttlMs === null ? null : Date.now() + ttlMs });
  }

  expire(key: string, ttlMs: number): number {
    if (this.read(key) === null) return 0;
    const entry = this.values.get(key);
    if (entry) entry.expiresAt = Date.now() + ttlMs;
    return 1;
  }

  remove(keys: string[]): number {
    return keys.filter((k) => this.read(k) !== null && this.values.delete(k)).length;
  }

  /** Delivers after the current task, in publish order, like a message arriving from a server. */
  publish(channel: string, message: string): number {
    const listeners = [...(this.channels.get(channel) ?? [])];
    for (const listener of listeners) queueMicrotask(() => listener(message, channel));
    return listeners.length;
  }

  /** The JavaScript twin of each script Heed evaluates (see scripts.ts). */
  eval(script: string, keys: string[], args: string[]): number {
    const [key = ''] = keys;
    const [token = '', ttl = '0'] = args;
    if (script === RELEASE_LOCK) return this.read(key) === token ? this.remove([key]) : 0;
    if (script === EXTEND_LOCK) return this.read(key) === token ? this.expire(key, Number(ttl)) : 0;
    if (script === RELAY_TEXT) {
      const [deadline = '', mode, text = '', ttlMs = '0', channel = '', message = ''] = args;
      if (deadline !== '' && Date.now() >= Number(deadline)) return 0;
      const keep = Number(ttlMs);
      this.write(key, mode === 'append' ? (this.read(key) ?? '') + text : text, keep);
      this.publish(channel, message);
      return 1;
    }
    throw new Error('memory-redis: this script has no in-process twin; add one in memory-redis.ts');
  }
}

const stores = new Map<string, MemoryStore>();

/** One queued command of a MULTI; run together, synchronously, at EXEC. */
type Queued = (store: MemoryStore) => unknown;

class MemoryMulti {
  private readonly queued: Queued[] = [];
  constructor(private readonly store: MemoryStore) {}

  set(key: string, value: string) {
    this.queued.push((s) => (s.write(key, value, null), 'OK'));
    return this;
  }
  append(key: string, value: string) {
    this.queued.push((s) => {
      const next = (s.read(key) ?? '') + value;
      const ttl = s.values.get(key)?.expiresAt ?? null;
      s.write(key, next, ttl === null ? null : ttl - Date.now());
      return next.length;
    });
    return this;
  }
  pExpire(key: string, ms: number) {
    this.queued.push((s) => s.expire(key, ms));
    return this;
  }
  publish(channel: string, message: string) {
    this.queued.push((s) => s.publish(channel, message));
    return this;
  }
  async exec(): Promise<unknown[]> {
    return this.queued.map((run) => run(this.store));
  }
}

/**
 * Heed's Redis commands served in this process, for the embedded mode (no `REDIS_URL`): one
 * process holds the conversation locks, the streaming replies' text and the event bus's
 * channels in memory. Only the commands Heed uses exist; `test/api/memory-redis.test.ts` runs
 * the same scenarios against a real Redis and this store and expects the same answers.
 *
 * Rate limits and stream slots do not run through it: they see `isInProcess` and count in
 * this process's memory (exact, since this mode is one process).
 */
export class MemoryRedis {
  readonly isReady = true;
  isOpen = true;
  private readonly store: MemoryStore;
  private readonly subscriptions = new Map<string, Set<Listener>>();

  constructor(name: string) {
    let store = stores.get(name);
    if (!store) stores.set(name, (store = new MemoryStore()));
    this.store = store;
  }

  on(): this {
    return this;
  }
  /** After `quit`, every command fails as node-redis's do ("The client is closed"). */
  private get openStore(): MemoryStore {
    if (!this.isOpen) throw new Error('The client is closed');
    return this.store;
  }
  async connect(): Promise<this> {
    return this;
  }
  async ping(): Promise<string> {
    return this.openStore && 'PONG';
  }
  async get(key: string): Promise<string | null> {
    return this.openStore.read(key);
  }
  async set(key: string, value: string, opts: SetOptions = {}): Promise<'OK' | null> {
    const exists = this.openStore.read(key) !== null;
    if ((opts.condition === 'NX' && exists) || (opts.condition === 'XX' && !exists)) return null;
    const ttl = opts.expiration ? opts.expiration.value * (opts.expiration.type === 'EX' ? 1000 : 1) : null;
    this.openStore.write(key, value, ttl);
    return 'OK';
  }
  async del(keys: string | string[]): Promise<number> {
    return this.openStore.remove(Array.isArray(keys) ? keys : [keys]);
  }
  async pExpire(key: string, ms: number): Promise<number> {
    return this.openStore.expire(key, ms);
  }
  async eval(script: string, opts: EvalOptions = {}): Promise<number> {
    return this.openStore.eval(script, opts.keys ?? [], opts.arguments ?? []);
  }
  async publish(channel: string, message: string): Promise<number> {
    return this.openStore.publish(channel, message);
  }
  multi(): MemoryMulti {
    return new MemoryMulti(this.openStore);
  }
  async subscribe(channel: string, listener: Listener): Promise<void> {
    const set = this.openStore.channels.get(channel) ?? new Set<Listener>();
    this.openStore.channels.set(channel, set.add(listener));
    this.subscriptions.set(channel, (this.subscriptions.get(channel) ?? new Set<Listener>()).add(listener));
  }
  /** Drops this client's listeners of `channel` (another client's stay, as on a server). */
  async unsubscribe(channel: string): Promise<void> {
    for (const listener of this.subscriptions.get(channel) ?? []) this.openStore.channels.get(channel)?.delete(listener);
    this.subscriptions.delete(channel);
  }
  async quit(): Promise<void> {
    for (const channel of [...this.subscriptions.keys()]) await this.unsubscribe(channel);
    this.isOpen = false;
  }
}
