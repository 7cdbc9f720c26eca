import OpenAI from 'openai';

/** Safe, user-visible codes for a reply that could not be generated. */
export type ReplyErrorCode =
  | 'model_rate_limited'
  | 'model_unavailable'
  | 'model_timeout'
  | 'model_rejected'
  | 'model_empty_reply'
  /** the provider's safety filter stopped the reply (`finish_reason: "content_filter"`) */
  | 'model_content_filtered'
  | 'model_error'
  /** the site reached its daily spend cap: the model was not called */
  | 'spend_cap'
  /** our database or Redis stayed away through every attempt (see retry-run.ts): the model was not at fault */
  | 'service_unavailable'
  /** a bug in our own code (logged with its stack): not the model's doing either */
  | 'internal_error';

export interface ClassifiedError {
  code: ReplyErrorCode;
  /** worth another attempt after a backoff */
  transient: boolean;
}

/** Maps an SDK or network error to a code and whether retrying can help. */
export function classifyModelError(err: unknown): ClassifiedError {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return { code: 'model_timeout', transient: true };
  if (err instanceof OpenAI.APIConnectionError) return { code: 'model_unavailable', transient: true };
  if (err instanceof OpenAI.APIError) {
    // an error sent inside a 200 stream (OpenRouter, LiteLLM) carries its status as the error's code
    const status = typeof err.status === 'number' ? err.status : statusInBody(err);
    if (status === undefined) return { code: 'model_error', transient: true };
    if (status === 429) return { code: 'model_rate_limited', transient: true };
    if (status === 408) return { code: 'model_timeout', transient: true };
    if (status >= 500) return { code: 'model_unavailable', transient: true };
    return { code: 'model_rejected', transient: false };
  }
  if (err instanceof ContentFilteredError) return { code: 'model_content_filtered', transient: false };
  if (err instanceof EmptyReplyError) return { code: 'model_empty_reply', transient: true };
  if (err instanceof ModelTimeoutError) return { code: 'model_timeout', transient: true };
  // a stream that broke off mid-way surfaces as a plain Error from the SDK's reader
  return { code: 'model_error', transient: true };
}

function statusInBody(err: InstanceType<typeof OpenAI.APIError>): number | undefined {
  const code = typeof err.error === 'object' && err.error !== null ? (err.error as { code?: unknown }).code : err.code;
  const status = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  return status !== undefined && status >= 400 && status < 600 ? status : undefined;
}

/** The provider's content filter ended the reply: retrying the same request would end the same way. */
export class ContentFilteredError extends Error {
  constructor() {
    super('the provider filtered the reply');
  }
}

export class EmptyReplyError extends Error {
  constructor() {
    super('the model returned no text');
  }
}

/** The stream closed without a finish reason: the reply is incomplete. */
export class StreamEndedEarlyError extends Error {
  constructor() {
    super('the model stream ended before the reply was finished');
  }
}

export class ModelTimeoutError extends Error {
  constructor(ms: number) {
    super(`no reply from the model within ${ms} ms`);
  }
}

/** What the visitor reads in place of a reply that failed. */
export const FAILURE_TEXT: Record<ReplyErrorCode, string> = {
  model_rate_limited: 'The assistant is busy right now and could not reply.',
  model_unavailable: 'The assistant could not be reached.',
  model_timeout: 'The assistant took too long to reply.',
  model_rejected: 'The assistant could not answer this request.',
  model_empty_reply: 'The assistant returned an empty reply.',
  model_content_filtered: "The assistant's provider withheld this reply under its content policy.",
  model_error: 'Something went wrong while the assistant was replying.',
  spend_cap: 'The assistant is unavailable right now. Please try again later.',
  service_unavailable: 'Something went wrong on our side; try again.',
  internal_error: 'Something went wrong on our side; try again.',
};
