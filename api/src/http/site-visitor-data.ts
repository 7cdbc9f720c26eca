import type { Services } from '../services.ts';
import { eraseVisitorData } from '../privacy/erase-visitor.ts';
import { exportVisitorData } from '../privacy/export-visitor.ts';
import type { ErasureSubject } from '../privacy/subject-hash.ts';

/** `/api/v1/sites/:siteKey/users/:userId[/export]` and `/api/v1/sites/:siteKey/visitors/:visitorId[/export]` */
export const VISITOR_DATA_PATH = /^\/api\/v1\/sites\/([^/]{1,256})\/(users|visitors)\/([^/]{1,600})(\/export)?$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id as verified identities carry it (Visitor.externalId holds at most 200 characters). */
const MAX_USER_ID = 200;

/** What the site API answers: a status and a JSON body (the caller writes it). */
export interface SiteAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The subject a visitor-data path names, or null when no visitor could ever have it (a user id
 * too long, a visitor id that is not a UUID): such a path answers 404 like any unknown path.
 */
export function subjectOf(kind: string, rawId: string): ErasureSubject | null {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    return null;
  }
  if (kind === 'users') return id.length > 0 && id.length <= MAX_USER_ID ? { kind: 'user', userId: id } : null;
  return UUID.test(id) ? { kind: 'visitor', visitorId: id.toLowerCase() } : null;
}

/**
 * A visitor's data from the site's own server, with its API key: `DELETE` erases everything
 * Heed holds about the user (or visitor) and answers `{ erasedAt, subject, counts }` — the same
 * again for a repeated call, zero counts for an id Heed never knew; `GET …/export` answers the
 * whole JSON document (404 `not_found` for an id Heed does not know).
 */
export async function answerVisitorData(
  s: Services,
  key: { id: string; siteId: string },
  q: { method: string; subject: ErasureSubject; exporting: boolean; base: string },
): Promise<SiteAnswer> {
  if (q.exporting) {
    if (q.method !== 'GET') return { status: 405, body: { error: 'method_not_allowed' }, headers: { allow: 'GET' } };
    const doc = await exportVisitorData(s.db, s.config, { siteId: key.siteId, subject: q.subject, baseUrl: q.base });
    return doc ? { status: 200, body: doc } : { status: 404, body: { error: 'not_found' } };
  }
  if (q.method !== 'DELETE') return { status: 405, body: { error: 'method_not_allowed' }, headers: { allow: 'DELETE' } };
  const result = await eraseVisitorData(s, { siteId: key.siteId, subject: q.subject, actor: { kind: 'api_key', keyId: key.id } });
  return { status: 200, body: result };
}
