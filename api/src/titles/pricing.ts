/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

/**
 * List prices of the models Heed is likely to call, for replies and titles alike (OpenAI's
 * published standard rates): the one price table behind run costs, title costs and the
 * daily spend cap.
 * Matched on the longest key that starts the model name, so dated snapshots
 * (`gpt-4o-mini-2024-07-18`) and provider prefixes (`openai/gpt-4o-mini`) find their entry.
 */
export const PRICES: Readonly<Record<string, Price>> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
};

/**
 * An unknown model is priced like an expensive one (gpt-4-turbo's rates, above every
 * model in the table that is fit for titles), so the cost ceiling still means something.
 */
export const DEFAULT_PRICE: Price = { input: 10, output: 30 };

/** Tokens a chat message costs beyond its text (role and separators). */
const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * The price of `model`: the env override when both halves are set, else the table, else
 * the conservative default.
 * @example priceOf('gpt-4o-mini-2024-07-18') // { input: 0.15, output: 0.6 }
 */
export function priceOf(model: string, override: Partial<Price> = {}): Price {
  if (override.input !== undefined && override.output !== undefined) return { input: override.input, output: override.output };
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  const key = Object.keys(PRICES)
    .filter((k) => name.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  const base = key ? PRICES[key]! : DEFAULT_PRICE;
  return { input: override.input ?? base.input, output: override.output ?? base.output };
}

/** What a call cost, in USD. */
export function costUsd(price: Price, usage: { promptTokens: number; completionTokens: number }): number {
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/**
 * The most a call can cost before it is made: every UTF-8 byte of the prompt counted as a
 * token (a byte-level tokenizer never produces more tokens than bytes; English averages
 * about four bytes a token, so this overestimates on purpose) plus `maxTokens` of output.
 */
export function worstCaseCostUsd(price: Price, prompt: { messages: readonly string[]; maxTokens: number }): number {
  const promptTokens = prompt.messages.reduce((sum, m) => sum + Buffer.byteLength(m, 'utf8') + MESSAGE_OVERHEAD_TOKENS, 0);
  return costUsd(price, { promptTokens, completionTokens: prompt.maxTokens });
}
