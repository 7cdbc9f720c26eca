/** What a sitemap lists: pages, or (a sitemap index) more sitemaps. */
export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
}

const decode = (s: string) =>
  s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/**
 * The `<loc>`s of a sitemap (sitemaps.org: `<urlset>`) or sitemap index (`<sitemapindex>`), in
 * order, entities decoded; null when the text is not a sitemap at all.
 * @example sitemapEntries('<urlset><url><loc>https://s.example/a</loc></url></urlset>') // { pages: ['https://s.example/a'], sitemaps: [] }
 */
export function sitemapEntries(xml: string): SitemapEntries | null {
  const index = /<sitemapindex[\s>]/i.test(xml);
  if (!index && !/<urlset[\s>]/i.test(xml)) return null;
  const locs = [...xml.matchAll(/<loc>([\s\S]*?)<\/loc>/gi)].map((m) => decode(m[1]!)).filter(Boolean);
  return index ? { pages: [], sitemaps: locs } : { pages: locs, sitemaps: [] };
}
