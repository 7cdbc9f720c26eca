import { z } from 'zod';

/** A position in the console's list: the last row of a page, in its order (updatedAt desc, id desc). */
export interface ListCursor {
  updatedAt: Date;
  id: string;
}

const wire = z.tuple([z.iso.datetime({ offset: true }), z.uuid()]);

/**
 * The opaque text a client passes back for the next page: base64url of `[updatedAt, id]`.
 * A keyset, not an offset: rows inserted or moved to the top meanwhile never shift the next
 * page (they arrive through `console.conversations.changes` instead).
 * @example encodeCursor({ updatedAt: new Date('2026-12-01T10:00:00Z'), id }) // 'WyIyMDI2…'
 */
export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([c.updatedAt.toISOString(), c.id])).toString('base64url');
}

/** The position a cursor names, or null when it is not one this server made. */
export function decodeCursor(text: string): ListCursor | null {
  try {
    const parsed = wire.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    return { updatedAt: new Date(parsed.data[0]), id: parsed.data[1] };
  } catch {
    return null;
  }
}
