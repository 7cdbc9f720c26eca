/** The content codings Heed precompresses its static files with, best first. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** File suffix of each coding's precompressed copy (`boot-x.js.br`). */
export const CODING_SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/**
 * The coding to send, from a request's `Accept-Encoding` and the precompressed copies that
 * exist (`available`), or null for the file as it is (identity). Highest q-value wins, ties go
 * to the smaller copy (br before gzip before identity), `q=0` refuses a coding, and `*` stands
 * for every coding not named (RFC 9110 §12.5.3). No header means identity, as most servers do.
 * When the client refuses identity too and no coding fits, identity is sent anyway: a 406 for a
 * script helps nobody.
 *
 * @example
 * pickCoding('gzip, deflate, br', ['br', 'gzip']); // 'br'
 * pickCoding('br;q=0, gzip', ['br', 'gzip']);      // 'gzip'
 */
export function pickCoding(header: string | undefined, available: readonly Coding[]): Coding | null {
  if (!header) return null;
  const weights = parseWeights(header);
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of CODINGS) {
    if (!available.includes(coding)) continue;
    const q = weightOf(coding);
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  // identity is acceptable unless refused by name, or by `*;q=0` without naming it
  const identityQ = weights.get('identity') ?? (weights.get('*') === 0 ? 0 : 1);
  return best && bestQ >= identityQ ? best : null;
}

/** `gzip;q=0.8, br` → Map { gzip → 0.8, br → 1 }; an unreadable q counts as 0 (refused). */
function parseWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    weights.set(name, Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0);
  }
  return weights;
}
