/** The fragment parameter a reply email's link carries its token in (`<page>#heed-resume=<token>`). */
export const RESUME_PARAM = 'heed-resume';

/**
 * Takes a reply email's token out of the page's address: read from the fragment, then removed
 * with `history.replaceState` (the rest of the fragment, if any, stays), so it is neither
 * bookmarked, shared by copying the address, nor used twice by a reload. The fragment never
 * reaches the host page's server. Undefined when the address carries none.
 * @example const resumeToken = takeResumeToken(); // 'r1.…' once, then undefined
 */
export function takeResumeToken(
  loc: Pick<Location, 'hash' | 'pathname' | 'search'> = location,
  hist: History = history,
): string | undefined {
  if (!loc.hash.includes(`${RESUME_PARAM}=`)) return undefined;
  const parts = loc.hash.slice(1).split('&');
  const ours = parts.find((p) => p.startsWith(`${RESUME_PARAM}=`));
  const rest = parts.filter((p) => p !== ours).join('&');
  let token: string | undefined;
  try {
    token = decodeURIComponent(ours?.slice(RESUME_PARAM.length + 1) ?? '') || undefined;
  } catch {
    token = undefined; // a broken escape: no token
  }
  try {
    hist.replaceState(hist.state, '', `${loc.pathname}${loc.search}${rest ? `#${rest}` : ''}`);
  } catch {
    // a sandboxed page may refuse: the token is still used once
  }
  return token && token.length <= 300 ? token : undefined;
}
