/** How often, at most, the server hears that the visitor is typing (it holds a batch a debounce past each). */
export const TYPING_SIGNAL_EVERY_MS = 1000;

interface AfterSend {
  /** the visitor's newest send in the conversation */
  clientMessageId: string;
  /** the server has it (a signal about a send it does not have yet changes nothing) */
  delivered: boolean;
  /** the visitor typed since that send */
  typed: boolean;
  /** when the last signal went out (ms since epoch) */
  signalledAt: number;
}

/**
 * Tells the server, throttled, that the visitor is typing after a send, so the run waits for the
 * rest of their words instead of answering the first half (the typing-aware debounce). Only
 * keystrokes after a send count: the typing of the message itself never delays its answer, so
 * nothing is signalled until there is a send, and a send resets it. Signals stop once the run
 * has claimed the send (nothing left to hold); their failures are ignored (a lost signal only
 * means an answer that comes a moment early).
 *
 * @example const typing = new TypingSignal((c, after) => api.typing(c, after)); typing.sent(c, id); typing.typed(c);
 */
export class TypingSignal {
  private readonly afterSend = new Map<string, AfterSend>();

  constructor(
    private readonly signal: (conversationId: string, after: string) => Promise<unknown>,
    private readonly everyMs = TYPING_SIGNAL_EVERY_MS,
  ) {}

  /** The visitor sent a message: keystrokes from now on are about what comes after it. */
  sent(conversationId: string, clientMessageId: string): void {
    this.afterSend.set(conversationId, { clientMessageId, delivered: false, typed: false, signalledAt: 0 });
  }

  /** The server acknowledged a send; typing that happened meanwhile is signalled now. */
  delivered(conversationId: string, clientMessageId: string): void {
    const s = this.afterSend.get(conversationId);
    if (s?.clientMessageId !== clientMessageId) return;
    s.delivered = true;
    if (s.typed) this.send(conversationId, s);
  }

  /** A run claimed the conversation's messages: there is no batch left to hold. */
  claimed(conversationId: string): void {
    this.afterSend.delete(conversationId);
  }

  /** A keystroke in the conversation's composer. */
  typed(conversationId: string): void {
    const s = this.afterSend.get(conversationId);
    if (!s) return;
    s.typed = true;
    if (s.delivered && Date.now() - s.signalledAt >= this.everyMs) this.send(conversationId, s);
  }

  private send(conversationId: string, s: AfterSend): void {
    s.signalledAt = Date.now();
    this.signal(conversationId, s.clientMessageId).catch(() => undefined);
  }
}
