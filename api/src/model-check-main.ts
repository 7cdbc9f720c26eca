import OpenAI from 'openai';
import { z } from 'zod';
import { configSchema } from './config.ts';
import { checkModel } from './model-check/model-check.ts';
import { watchingFetch } from './chat/model/byte-watch.ts';
import { formatReport } from './model-check/format-report.ts';

/**
 * `npm run model:check`: three tiny requests to the configured model server (a streamed reply
 * with tools, one without, a title) and a report of what works, what falls back and what to
 * set. Reads only the model settings; exits 1 when something fails.
 */
try {
  const { shape } = configSchema;
  const env = z
    .object({
      OPENAI_API_KEY: shape.OPENAI_API_KEY,
      OPENAI_BASE_URL: shape.OPENAI_BASE_URL,
      OPENAI_MODEL: shape.OPENAI_MODEL,
      TITLE_MODEL: shape.TITLE_MODEL,
      OPENAI_COMPAT: shape.OPENAI_COMPAT,
      /** per request: a reasoning model may think for a minute */
      MODEL_CHECK_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
    })
    .parse(process.env);
  // the client production builds (services.ts): keep-alive bytes count as life, as they will there
  const openai = new OpenAI({
    apiKey: env.OPENAI_API_KEY ?? 'not-needed-for-local-model',
    baseURL: env.OPENAI_BASE_URL,
    maxRetries: 0,
    fetch: watchingFetch,
  });
  const target = {
    openai,
    baseUrl: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    model: env.OPENAI_MODEL,
    titleModel: env.TITLE_MODEL || env.OPENAI_MODEL,
    declared: env.OPENAI_COMPAT ?? [],
    timeoutMs: env.MODEL_CHECK_TIMEOUT_MS,
  };
  const report = await checkModel(target);
  console.log(formatReport(report, target));
  process.exit(report.lines.some((l) => l.status === 'fails') ? 1 : 0);
} catch (err) {
  console.error(`[heed] model:check failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
