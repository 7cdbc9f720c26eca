import type { IncomingHttpHeaders } from 'node:http';

/** One message of a chat request, loosely typed: the server records what it gets and trusts nothing. */
export interface ChatRequestMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  [key: string]: unknown;
}

/** A chat-completions request body as received. Only the fields the server reads are typed. */
export interface ChatRequestBody {
  model?: string;
  messages?: ChatRequestMessage[];
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null } | null;
  [key: string]: unknown;
}

/** A chat-completions request the server received, in arrival order. */
export interface RecordedRequest {
  /** 1, 2, 3… in arrival order (restarts at 1 after `reset()`) */
  id: number;
  /** the parsed JSON body, exactly as the client sent it */
  body: ChatRequestBody;
  headers: IncomingHttpHeaders;
  /** `Date.now()` when the request arrived */
  receivedAt: number;
  /** `Date.now()` when the response ended, broke off or was aborted; unset while it is being answered */
  finishedAt?: number;
  /** the client went away before the response was complete */
  aborted: boolean;
}

/** Token counts as OpenAI reports them. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A tool call the model "makes"; `arguments` objects are sent as JSON text. */
export interface ScriptedToolCall {
  /** defaults to `call_<request id>_<index>` */
  id?: string;
  name: string;
  arguments: string | object;
}

/**
 * A failure. Without `afterChunks`: an HTTP error status with an OpenAI-style JSON body, before any streaming.
 * With `afterChunks`: a 200 stream whose socket is destroyed after that many `data:` events (the role
 * chunk counts); a non-streaming request just loses its connection.
 */
export interface ScriptedError {
  status: number;
  message?: string;
  /** OpenAI error `type`; derived from the status when omitted */
  type?: string;
  afterChunks?: number;
}

/**
 * What the fake model answers to one request.
 * @example { text: 'Hello there', chunkDelayMs: 5 }
 * @example { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }
 * @example { error: { status: 429 } }
 */
export interface ScriptedReply {
  /** reply text, streamed in word-ish tokens (leading whitespace kept) or `chunkSize` characters */
  text?: string;
  /** explicit content chunks; wins over `text` */
  chunks?: string[];
  /** characters per content chunk and per tool-argument fragment */
  chunkSize?: number;
  /** wait before the first byte of the answer */
  delayMs?: number;
  /**
   * answer only once this settles (after `delayMs`): a test holds a reply until the visitor has
   * done what it checks (closed the panel, marked read), where a guessed delay races a busy machine
   */
  until?: Promise<unknown>;
  /** wait between streamed chunks */
  chunkDelayMs?: number;
  toolCalls?: ScriptedToolCall[];
  error?: ScriptedError;
  /** never answer; the request ends only when the client aborts or the server closes */
  hang?: boolean;
  /** how the answer ends when it calls no tool: `length` is a reply cut at the token cap (default `stop`) */
  finishReason?: 'stop' | 'length';
  /** override the estimated token counts; `total_tokens` defaults to the sum */
  usage?: Partial<Usage>;
}

/** Chooses the reply for a request that found the script queue empty. */
export type Responder = (req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
