import { costUsd, type Price } from '../titles/pricing.ts';

/** English averages about four UTF-8 bytes a token; only used when the provider reports no usage. */
const BYTES_PER_TOKEN = 4;

export interface RunCost {
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** the provider reported no usage: the tokens are an estimate from the text */
  estimated: boolean;
}

/**
 * What a reply's model calls cost, from the price table. Uses the usage the provider
 * reported; a provider that reports none (some OpenAI-compatible servers ignore
 * `include_usage`) is estimated from the bytes sent on every attempt and received, so the
 * daily spend cap still counts it rather than seeing a free run.
 * @example runCost(priceOf('gpt-4o-mini'), reply, contextMessages).costUsd
 */
export function runCost(
  price: Price,
  reply: { promptTokens: number | null; completionTokens: number | null; attempts: number; text: string },
  prompt: unknown,
): RunCost {
  const estimated = reply.promptTokens === null && reply.completionTokens === null;
  const promptTokens = reply.promptTokens ?? Math.ceil(byteLength(prompt) / BYTES_PER_TOKEN) * Math.max(1, reply.attempts);
  const completionTokens = reply.completionTokens ?? Math.ceil(Buffer.byteLength(reply.text, 'utf8') / BYTES_PER_TOKEN);
  return { promptTokens, completionTokens, costUsd: costUsd(price, { promptTokens, completionTokens }), estimated };
}

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
