import type { Db } from '../../db/client.ts';
import type { CapabilityFinding } from './capabilities.ts';

/**
 * Records a refusal a process learned, for the console's "features off" list: one row per
 * server, model and flag. A later process learning it again only moves `seenAt` and keeps the
 * provider's newest words; a server fixed since shows as a finding not seen after the restart.
 * @example capabilities = new ModelCapabilities(url, [], (f) => void recordFinding(db, f).catch(warn))
 */
export async function recordFinding(db: Pick<Db, 'modelFinding'>, finding: CapabilityFinding): Promise<void> {
  const { baseUrl, model, flag, providerMessage } = finding;
  const now = new Date();
  await db.modelFinding.upsert({
    where: { baseUrl_model_flag: { baseUrl, model, flag } },
    create: { baseUrl, model, flag, providerMessage, learnedAt: now, seenAt: now },
    update: { seenAt: now, ...(providerMessage ? { providerMessage } : {}) },
  });
}
