import { z } from 'zod';

/**
 * How one operator wants to hear of what needs a person, per channel:
 * - `notify`: a browser notification from the console (the browser's permission asked from a click),
 * - `sound`: a short sound in the console,
 * - `email`: an email after `EMAIL_ALERT_DELAY_MS`, sent only if the conversation was not seen meanwhile.
 * Each channel covers both events: a visitor waiting for a person, and a visitor writing to a
 * conversation assigned to or held by this operator. The tab title's count is always on.
 * Stored as `Operator.alerts` (JSON); a missing or unreadable key reads as its default, so a
 * setting added later never breaks an older row.
 * @example alertSettings.parse({ sound: true }) // { notify: true, sound: true, email: true }
 */
export const alertSettings = z.object({
  notify: z.boolean().catch(true).default(true),
  sound: z.boolean().catch(false).default(false),
  email: z.boolean().catch(true).default(true),
});

export type AlertSettings = z.infer<typeof alertSettings>;

/** The stored JSON as settings: anything that is not an object reads as the defaults. */
export function readAlertSettings(stored: unknown): AlertSettings {
  const parsed = alertSettings.safeParse(stored ?? {});
  return parsed.success ? parsed.data : alertSettings.parse({});
}

/** `console.profile.setAlerts`: the channels to change (absent ones stay). */
export const alertSettingsChange = z.strictObject({
  notify: z.boolean().optional(),
  sound: z.boolean().optional(),
  email: z.boolean().optional(),
});
