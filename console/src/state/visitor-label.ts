/**
 * How the console names a visitor: their name, else the site's verified user id, else
 * "Anonymous" and the first characters of Heed's id (enough to tell two apart).
 * @example visitorLabel({ id: '7f3a…', externalId: null, name: null }) // 'Anonymous 7f3a9c'
 */
export function visitorLabel(v: { id: string; externalId: string | null; name: string | null }): string {
  if (v.name) return v.externalId ? `${v.name} (${v.externalId})` : v.name;
  if (v.externalId) return `User ${v.externalId}`;
  return `Anonymous ${v.id.replace(/-/g, '').slice(0, 6)}`;
}
