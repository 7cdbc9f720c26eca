import { NetworkError, ServerError } from '../../../widget/src/state/trpc-wire.ts';

/** What the console tells an operator about a failed call. */
export interface ErrorText {
  /** one sentence for the form or the live region */
  message: string;
  /** per-field messages from the server's zod check, by input field name */
  fields: Record<string, string>;
  /** the session is gone: show the sign-in again */
  signedOut: boolean;
  /** the refusal's machine-readable reason (`wrong_password`…), for a view that places it; absent when none */
  reason?: string;
}

const REASONS: Record<string, string> = {
  bad_credentials: 'That email and password do not match an operator.',
  sign_in_throttled: 'Too many attempts. Wait a moment and try again.',
  console_signed_out: 'Your session ended. Sign in again.',
  owner_only: 'Only an owner may do this.',
  console_origin: 'This change must come from the console page itself. Reload the page.',
  attachment_unavailable: 'A file of this reply can no longer be sent: remove it and attach it again.',
  message_files_too_large: 'These files together are more than this site takes in one message: remove some.',
};

/**
 * A human sentence (and field messages) for any error a console call throws: the server's
 * refusal reasons get a fixed sentence, zod's field errors are kept per field, a network
 * failure says so. Server messages are safe to show (internal ones are generic).
 *
 * @example const { message, fields } = errorText(err);
 */
export function errorText(err: unknown): ErrorText {
  if (err instanceof NetworkError)
    return { message: 'The server cannot be reached. Check the connection and try again.', fields: {}, signedOut: false };
  if (!(err instanceof ServerError)) return { message: 'Something went wrong. Please try again.', fields: {}, signedOut: false };
  const data = err.data as ServerError['data'] & { fieldErrors?: Record<string, string[] | undefined> | null };
  const fields: Record<string, string> = {};
  for (const [name, messages] of Object.entries(data.fieldErrors ?? {})) if (messages?.[0]) fields[name] = messages[0];
  const signedOut = data.code === 'UNAUTHORIZED' && data.reason !== 'bad_credentials';
  // a refusal's code comes as its reason, or (the attachment refusals of a send) as the message itself
  let message = (data.reason && REASONS[data.reason]) || (Object.hasOwn(REASONS, err.message) ? REASONS[err.message] : null) || err.message;
  if (data.reason === 'sign_in_throttled' && data.retryAfterMs)
    message = `Too many attempts. Try again in ${Math.ceil(data.retryAfterMs / 1000)} s.`;
  if (Object.keys(fields).length > 0 && data.code === 'BAD_REQUEST') message = 'Some fields need a change (see below).';
  if (data.code === 'PAYLOAD_TOO_LARGE') message = 'That is more than the server takes at once: choose a smaller file.';
  return { message, fields, signedOut, ...(data.reason ? { reason: data.reason } : {}) };
}
