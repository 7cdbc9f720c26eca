import { TITLE_MAX } from '../../../api/src/shared/title-limits.ts';

export { TITLE_MAX };

/**
 * The title a visitor typed, as the server will store it (whitespace collapsed, trimmed),
 * or null when it cannot be one: empty, or longer than TITLE_MAX characters (code points,
 * as the server counts them).
 *
 * @example titleFromInput('  Shipping   to Norway ') // 'Shipping to Norway'
 */
export function titleFromInput(raw: string): string | null {
  const title = raw.replace(/\s+/g, ' ').trim();
  const length = Array.from(title).length;
  return length >= 1 && length <= TITLE_MAX ? title : null;
}
