import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { type AlertSettings, type alertSettingsChange, readAlertSettings } from './alert-settings.ts';

/** What the console's profile shows: the operator's channels, and whether this server can send email at all. */
export interface OwnAlerts extends AlertSettings {
  /** SMTP_URL is set: without it the email channel is stored but nothing is sent */
  emailEnabled: boolean;
}

/**
 * The signed-in operator's own alert settings (`Operator.alerts`, defaults for what is unset).
 * @example await ownAlerts(db, operatorId, Boolean(config.SMTP_URL)) // { notify: true, sound: false, email: true, emailEnabled: false }
 */
export async function ownAlerts(db: Db, operatorId: string, emailEnabled: boolean): Promise<OwnAlerts> {
  const { alerts } = await db.operator.findUniqueOrThrow({ where: { id: operatorId }, select: { alerts: true } });
  return { ...readAlertSettings(alerts), emailEnabled };
}

/**
 * Changes some of the operator's own channels, keeping the others. Merged in one statement
 * (`||` on the stored object), so two tabs changing two channels at once both land; a stored
 * value that is not an object (never written by this code) starts over from `{}`.
 * @example await changeOwnAlerts(db, operatorId, { sound: true }, false)
 */
export async function changeOwnAlerts(
  db: Db,
  operatorId: string,
  change: z.infer<typeof alertSettingsChange>,
  emailEnabled: boolean,
): Promise<OwnAlerts> {
  const rows = await db.$queryRaw<{ alerts: unknown }[]>`
    UPDATE "Operator"
    SET alerts = (CASE WHEN jsonb_typeof(alerts) = 'object' THEN alerts ELSE '{}'::jsonb END) || ${JSON.stringify(change)}::jsonb
    WHERE id = ${operatorId}::uuid
    RETURNING alerts`;
  return { ...readAlertSettings(rows[0]?.alerts), emailEnabled };
}
