/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './overview-people.ts';
import type { HeedOverviewPeople } from './overview-people.component.ts';
import type { OverviewPeople } from '../state/contract.ts';
import { counts, people } from '../test-support/fake-people.ts';
import { bucketText, shareText, waitText } from './people-words.ts';

const day = (d: string) => `2026-10-${d}T00:00:00.000Z`;

const figures: OverviewPeople = people({
  points: [
    { t: day('05'), ...counts() },
    {
      t: day('06'),
      ...counts({
        firstResponses: 2,
        firstResponseP50S: 420,
        firstResponseP90S: 564,
        resolutions: 2,
        resolutionP50S: 2700,
        resolutionP90S: 3420,
        helpful: 1,
        notHelpful: 1,
        helpfulShare: 0.5,
      }),
    },
    { t: day('07'), ...counts({ resolutions: 1, resolutionP50S: 14 * 86_400 + 7200, resolutionP90S: 14 * 86_400 + 7200 }) },
  ],
  operators: [
    { operator: { id: 'op-a', name: 'Ana' }, ...counts({ firstResponses: 2, firstResponseP50S: 45, firstResponseP90S: 59, helpful: 1 }) },
    { operator: null, ...counts({ resolutions: 1, resolutionP50S: 600, resolutionP90S: 600, notHelpful: 1 }) },
  ],
  total: counts({
    firstResponses: 2,
    firstResponseP50S: 420,
    firstResponseP90S: 564,
    resolutions: 3,
    resolutionP50S: 3420,
    resolutionP90S: 900_000,
    helpful: 2,
    notHelpful: 1,
    helpfulShare: 2 / 3,
  }),
  comments: [
    { conversationId: 'c2', siteName: 'Shop', rating: -1, comment: 'Slow\nvery slow', ratedAt: '2026-10-06T12:30:00Z', operatorName: 'Bo' },
    { conversationId: 'c1', siteName: 'Shop', rating: 1, comment: 'Fast and kind', ratedAt: '2026-10-06T10:40:00Z', operatorName: null },
  ],
  commentCount: 61,
});

async function render(p: OverviewPeople, bucket: 'hour' | 'day' = 'day') {
  const el = await fixture<HeedOverviewPeople>(html`<heed-overview-people .people=${p} .bucket=${bucket}></heed-overview-people>`);
  return { el, root: el.shadowRoot! };
}

const cells = (row: Element) => [...row.children].map((c) => c.textContent!.trim());

describe('heed-overview-people', () => {
  it('shows p50/p90 per day (only the days with something) with the whole range, and per operator, under headers that name each figure', async () => {
    const { root } = await render(figures);
    expect(root.querySelector('h2')!.textContent).to.equal('People');
    const byDay = root.querySelector('table[data-table=by-time]')!;
    expect(byDay.querySelector('caption')!.textContent).to.equal('By day');
    const headers = [...byDay.querySelectorAll('thead th')];
    expect(headers.map((h) => h.textContent)).to.deep.equal([
      'Day (UTC)',
      'First responses',
      'First response p50',
      'First response p90',
      'Resolved',
      'Resolution p50',
      'Resolution p90',
      'Helpful',
      'Not helpful',
    ]);
    expect(headers.every((h) => h.getAttribute('scope') === 'col')).to.be.true;
    const rows = [...byDay.querySelectorAll('tbody tr')];
    expect(rows.map(cells)).to.deep.equal([
      [bucketText(day('06'), 'day'), '2', '7 min', '9 min 24 s', '2', '45 min', '57 min', '1', '1'],
      [bucketText(day('07'), 'day'), '0', '—', '—', '1', '14 d 2 h', '14 d 2 h', '0', '0'],
    ]);
    expect(rows.every((r) => r.firstElementChild!.matches('th[scope=row]'))).to.be.true;
    expect(cells(byDay.querySelector('tfoot tr')!)).to.deep.equal([
      'Whole range',
      '2',
      '7 min',
      '9 min 24 s',
      '3',
      '57 min',
      '10 d 10 h',
      '2',
      '1',
    ]);

    const byOperator = root.querySelector('table[data-table=by-operator]')!;
    expect(byOperator.querySelector('caption')!.textContent).to.equal('By operator');
    expect([...byOperator.querySelectorAll('tbody tr')].map(cells)).to.deep.equal([
      ['Ana', '2', '45 s', '59 s', '0', '—', '—', '1', '0'],
      ['No operator (removed or unassigned)', '0', '—', '—', '1', '10 min', '10 min', '0', '1'],
    ]);
    // each table scrolls on its own on a narrow screen, reachable and named for the keyboard
    const wrap = byOperator.closest('.table-wrap')!;
    expect([wrap.getAttribute('tabindex'), wrap.getAttribute('role')]).to.deep.equal(['0', 'region']);
    // one site: no table by site
    expect(root.querySelector('table[data-table=by-site]')).to.be.null;
  });

  it('across several sites, adds a table by site', async () => {
    const { root } = await render({
      ...figures,
      sites: [
        { site: { id: 's1', name: 'Shop' }, ...counts({ firstResponses: 2, firstResponseP50S: 240, firstResponseP90S: 300 }) },
        { site: { id: 's2', name: 'Outlet' }, ...counts({ resolutions: 1, resolutionP50S: 60, resolutionP90S: 60 }) },
      ],
    });
    const bySite = root.querySelector('table[data-table=by-site]')!;
    expect(bySite.querySelector('caption')!.textContent).to.equal('By site');
    expect(bySite.querySelector('thead th')!.textContent).to.equal('Site');
    expect([...bySite.querySelectorAll('tbody tr')].map(cells)).to.deep.equal([
      ['Shop', '2', '4 min', '5 min', '0', '—', '—', '0', '0'],
      ['Outlet', '0', '—', '—', '1', '1 min', '1 min', '0', '0'],
    ]);
  });

  it('counts the ratings, the share of 👍, and lists the comments newest first, saying when there are more', async () => {
    const { root } = await render(figures);
    const rating = (name: string) => root.querySelector(`[data-rating=${name}]`)!.textContent;
    expect([rating('helpful'), rating('not-helpful'), rating('share')]).to.deep.equal(['2', '1', '67 %']);
    expect(root.textContent).to.contain('The newest 2 of 61.');
    const items = [...root.querySelectorAll('.comments li')];
    expect(items.map((li) => li.querySelector('.words')!.textContent)).to.deep.equal(['Slow\nvery slow', 'Fast and kind']);
    expect(items[0]!.querySelector('.thumb')!.textContent!.trim()).to.equal('👎 Not helpful');
    expect(items[0]!.querySelector('.meta')!.textContent).to.contain('Shop · Bo ·');
    expect(items[1]!.querySelector('.meta')!.textContent).to.not.contain('·  ·');
  });

  it('says when nobody waited for a person and nothing was rated; hours for 24 hours', async () => {
    const { root } = await render(people());
    expect(root.querySelector('table')).to.be.null;
    expect(root.textContent).to.contain('Nobody waited for a person in this range.').and.contain('No comments in this range.');
    expect(root.querySelector('[data-rating=share]')!.textContent).to.equal('—');
    const hourly = await render(
      people({ points: [{ t: '2026-10-06T14:00:00.000Z', ...counts({ firstResponses: 1, firstResponseP50S: 30 }) }] }),
      'hour',
    );
    const table = hourly.root.querySelector('table')!;
    expect(table.querySelector('caption')!.textContent).to.equal('By hour');
    expect(table.querySelector('thead th')!.textContent).to.equal('Hour');
  });

  it('is accessible', async () => {
    const { el } = await render(figures);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('says waits and shares as people read them', () => {
    expect([waitText(null), waitText(0), waitText(59.6), waitText(245), waitText(3600), waitText(7320), waitText(90_061)]).to.deep.equal([
      '—',
      '0 s',
      '1 min',
      '4 min 5 s',
      '1 h',
      '2 h 2 min',
      '1 d 1 h',
    ]);
    expect([shareText(null), shareText(0), shareText(2 / 3), shareText(1)]).to.deep.equal(['—', '0 %', '67 %', '100 %']);
    expect(bucketText('2026-10-06T00:00:00.000Z', 'day', 'en-GB')).to.equal('6 Oct');
  });
});
