import { expect, test } from 'vitest';
import { sitemapEntries } from './sitemap.ts';

test('a sitemap lists pages, an index lists sitemaps, entities decoded; anything else is not a sitemap', () => {
  expect(
    sitemapEntries(
      '<?xml version="1.0"?><urlset><url><loc> https://s.example/a?x=1&amp;y=2 </loc></url><url><loc><![CDATA[https://s.example/b]]></loc></url></urlset>',
    ),
  ).toEqual({ pages: ['https://s.example/a?x=1&y=2', 'https://s.example/b'], sitemaps: [] });
  expect(sitemapEntries('<sitemapindex><sitemap><loc>https://s.example/s1.xml</loc></sitemap></sitemapindex>')).toEqual({
    pages: [],
    sitemaps: ['https://s.example/s1.xml'],
  });
  expect(sitemapEntries('<html><body><loc>nope</loc></body></html>')).toBeNull();
});
