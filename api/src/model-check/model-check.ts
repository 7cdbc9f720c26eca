import type OpenAI from 'openai';
import { ModelCapabilities } from '../chat/model/capabilities.ts';
import { FALLBACK_OF, type CompatFlag } from '../chat/model/compat-flags.ts';
import { ReplyFailedError, streamReply } from '../chat/model/model-stream.ts';
import { providerError } from '../chat/model/provider-error.ts';
import { TOOLS } from '../chat/model/tools.ts';
import { decideTitle } from '../titles/decide-title.ts';
import { callTitleModel } from '../titles/title-call.ts';
import { titleMessages } from '../titles/title-prompt.ts';

/** One line of the report: what was tried, how it went, and the server's own words when it refused. */
export interface CheckLine {
  check: 'reply with tools' | 'reply without tools' | 'title';
  status: 'works' | 'falls back' | 'fails';
  /** what Heed does instead (falls back), or what went wrong (fails) */
  detail?: string;
  /** the provider's sentence (bounded, see providerError) */
  said?: string;
}

export interface CheckReport {
  lines: CheckLine[];
  /** what the server refused, to declare with OPENAI_COMPAT so no request is spent learning it */
  flags: CompatFlag[];
}

export interface CheckTarget {
  openai: OpenAI;
  /** the server's base URL as logs name it */
  baseUrl: string;
  model: string;
  titleModel: string;
  declared: readonly CompatFlag[];
  /** per request; the check's requests are tiny */
  timeoutMs: number;
}

/**
 * Tries the configured model server the way Heed will use it: one tiny streamed reply with
 * tools, one without, one title. A refused parameter is learned as in production, so the
 * report says which fall back and which flags to declare; a failure carries the server's words.
 * @example const report = await checkModel({ openai, baseUrl, model: 'llama3.1', titleModel: 'llama3.1', declared: [], timeoutMs: 60_000 });
 */
export async function checkModel(t: CheckTarget): Promise<CheckReport> {
  const caps = new ModelCapabilities(t.baseUrl, t.declared);
  const lines = [await reply(t, caps, true), await reply(t, caps, false), await title(t, caps)];
  const flags = [...new Set([...caps.of(t.model), ...caps.of(t.titleModel)])];
  return { lines, flags };
}

async function reply(t: CheckTarget, caps: ModelCapabilities, withTools: boolean): Promise<CheckLine> {
  const check = withTools ? 'reply with tools' : 'reply without tools';
  const before = new Set(caps.of(t.model));
  try {
    await streamReply(
      t.openai,
      {
        model: t.model,
        messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
        maxTokens: 200,
        timeoutMs: t.timeoutMs,
        firstTokenMs: t.timeoutMs,
        signal: new AbortController().signal,
        capabilities: caps,
        ...(withTools ? { tools: TOOLS, toolChoice: 'auto' as const } : {}),
        onDelta: async () => {},
        onRestart: async () => {},
      },
      { maxAttempts: 1 },
    );
    return learned(check, before, caps.of(t.model));
  } catch (err) {
    return failed(check, err);
  }
}

async function title(t: CheckTarget, caps: ModelCapabilities): Promise<CheckLine> {
  const before = new Set(caps.of(t.titleModel));
  const messages = titleMessages({
    currentTitle: null,
    source: 'first_message',
    input: { first: ['Hello, when does your shop open on Saturdays?'], latest: [] },
  });
  const call = await callTitleModel(
    { openai: t.openai, capabilities: caps },
    { model: t.titleModel, maxTokens: 60, timeoutMs: t.timeoutMs },
    messages,
    new AbortController().signal,
  );
  if (call.kind === 'interrupted') return { check: 'title', status: 'fails', detail: 'interrupted' };
  if (call.kind === 'error') return { check: 'title', status: 'fails', detail: call.code, ...said(call.cause) };
  const decision = decideTitle({ title: null, source: 'first_message' }, call.completion.choices[0]?.message?.content ?? null, {
    prose: call.prose,
  });
  if (decision.outcome === 'rejected')
    return { check: 'title', status: 'fails', detail: `answer not usable as a title: ${decision.reason}` };
  return learned('title', before, caps.of(t.titleModel));
}

function learned(check: CheckLine['check'], before: ReadonlySet<CompatFlag>, after: ReadonlySet<CompatFlag>): CheckLine {
  const found = [...after].filter((f) => !before.has(f));
  if (found.length === 0) return { check, status: 'works' };
  return {
    check,
    status: 'falls back',
    detail: found.map((f) => `${FALLBACK_OF[f].parameter} refused: ${FALLBACK_OF[f].fallback}`).join('; '),
  };
}

function failed(check: CheckLine['check'], err: unknown): CheckLine {
  const code = err instanceof ReplyFailedError ? err.classified.code : err instanceof Error ? err.name : 'error';
  const cause = err instanceof ReplyFailedError ? err.cause : err;
  return { check, status: 'fails', detail: code, ...said(cause) };
}

function said(cause: unknown): { said?: string } {
  const p = providerError(cause);
  const words = [p.status ? `HTTP ${p.status}` : '', p.message ?? ''].filter(Boolean).join(' ');
  return words ? { said: words } : {};
}
