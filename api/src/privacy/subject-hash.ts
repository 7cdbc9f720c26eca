import { createHmac } from 'node:crypto';

/** Who an erasure was about: the host's verified user id, or Heed's own visitor id. */
export type ErasureSubject = { kind: 'user'; userId: string } | { kind: 'visitor'; visitorId: string };

/**
 * A keyed hash of an erasure's subject: the audit record finds a repeated request by it, while
 * neither the record nor a copy of the database says whose data it was (without the secret, an
 * id cannot be tried against it).
 * @example subjectHash(config.HEED_SECRET, siteId, { kind: 'user', userId: 'u-42' })
 */
export function subjectHash(secret: string, siteId: string, subject: ErasureSubject): string {
  const id = subject.kind === 'user' ? subject.userId : subject.visitorId;
  return createHmac('sha256', secret).update(`heed-erasure:${siteId}:${subject.kind}:${id}`).digest('hex');
}
