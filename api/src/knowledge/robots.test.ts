import { expect, test } from 'vitest';
import { robotsAllow, robotsRules } from './robots.ts';

test('the crawler’s own group wins over *, the longest rule decides, Allow on a tie, * and $ as patterns', () => {
  const text = `# shop
User-agent: *
Disallow: /

User-agent: HeedKnowledgeBot
Disallow: /cart
Allow: /cart/help
Disallow: /*.pdf$
`;
  const rules = robotsRules(text);
  expect(robotsAllow(rules, '/shipping')).toBe(true);
  expect(robotsAllow(rules, '/cart/1')).toBe(false);
  expect(robotsAllow(rules, '/cart/help/returns')).toBe(true);
  expect(robotsAllow(rules, '/terms.pdf')).toBe(false);
  expect(robotsAllow(rules, '/terms.pdf?v=2')).toBe(true);
  // another crawler's file: only * applies
  expect(robotsAllow(robotsRules('User-agent: *\nDisallow: /private'), '/private/x')).toBe(false);
  expect(robotsAllow(robotsRules(''), '/anything')).toBe(true);
});
