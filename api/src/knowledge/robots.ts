/** The rules of a robots.txt that apply to Heed's crawler: its own group if it has one, else `*`'s. */
export interface RobotsRules {
  allow: string[];
  disallow: string[];
}

/** The crawler's name as robots.txt groups match it (`User-agent: HeedKnowledgeBot`). */
const AGENT = 'heedknowledgebot';

/**
 * Reads a robots.txt: the group for Heed's crawler, else the `*` group (RFC 9309: one group
 * applies, the most specific). Unknown lines are ignored; an empty or missing file allows all.
 * @example robotsRules('User-agent: *\nDisallow: /cart') // { allow: [], disallow: ['/cart'] }
 */
export function robotsRules(text: string): RobotsRules {
  const groups: { agents: string[]; rules: RobotsRules }[] = [];
  let current: { agents: string[]; rules: RobotsRules } | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const field = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: { allow: [], disallow: [] } }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current || value === '') continue;
    if (field === 'allow') current.rules.allow.push(value);
    if (field === 'disallow') current.rules.disallow.push(value);
  }
  const own = groups.find((g) => g.agents.some((a) => a !== '*' && AGENT.startsWith(a)));
  return (own ?? groups.find((g) => g.agents.includes('*')))?.rules ?? { allow: [], disallow: [] };
}

/**
 * Whether the rules let the crawler fetch `path` (with its query): the longest matching rule
 * wins, Allow on a tie; `*` matches anything and a final `$` anchors the end.
 * @example robotsAllow({ allow: [], disallow: ['/cart'] }, '/cart/1') // false
 */
export function robotsAllow(rules: RobotsRules, path: string): boolean {
  const longest = (patterns: string[]) => Math.max(-1, ...patterns.filter((p) => matches(p, path)).map((p) => p.length));
  return longest(rules.allow) >= longest(rules.disallow);
}

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`).test(path);
}
