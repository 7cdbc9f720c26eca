/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { ServerError, NetworkError } from '../../../widget/src/state/trpc-wire.ts';
import { errorText } from './error-text.ts';
import { chartsOf, totalsOf } from './overview-charts.ts';
import { noticeText, provenanceLabel } from './provenance.ts';
import { reasonText } from './proactive-words.ts';
import { attachmentFacts, refusalSentence, typeLabel } from './attachment-words.ts';
import { bytesOf, changedFields, greetingLines, greetingsOf, MB, megabytes, siteInput } from './site-form.ts';
import { UploadRefusal } from './upload.ts';
import { bothTimes, duration, exactTime, usd } from './times.ts';
import { visitorLabel } from './visitor-label.ts';
import { fakeConsoleApi } from '../test-support/fake-console-api.ts';

const form = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.set(k, v);
  return f;
};

describe('console helpers', () => {
  it('shape the site form: blank optional texts are null, origins one per line, the cap a number', () => {
    const input = siteInput(
      form({
        name: ' Shop ',
        allowedOrigins: 'https://a.example\n\nhttps://b.example ',
        greeting: '  ',
        accentColor: '#AABBCC',
        replyMaxTokens: '400',
        requireIdentity: 'on',
      }),
    );
    expect(input).to.deep.include({
      name: 'Shop',
      allowedOrigins: ['https://a.example', 'https://b.example'],
      greeting: null,
      accentColor: '#aabbcc',
      replyMaxTokens: 400,
      requireIdentity: true,
      launcherPosition: 'bottom_right',
    });
    expect(input).to.not.have.property('key');
    expect(siteInput(form({ name: 'x', key: 'my-shop', replyMaxTokens: '' }))).to.deep.include({ key: 'my-shop', replyMaxTokens: null });
  });

  it('shape the days conversations are kept: blank keeps them, anything else as the number it reads as', () => {
    expect(siteInput(form({ name: 'Shop', retentionDays: ' ' })).retentionDays).to.equal(null);
    expect(siteInput(form({ name: 'Shop', retentionDays: ' 30 ' })).retentionDays).to.equal(30);
    // not a number: NaN, which the editor refuses at the field (blank would mean "keep")
    expect(siteInput(form({ name: 'Shop', retentionDays: 'abc' })).retentionDays).to.be.NaN;
  });

  it('read the greetings by language from "code: text" lines and show them the same way', () => {
    const lines = 'de: Hallo! Wie können wir helfen?\n\nFR : Bonjour : bienvenue\nno colon here\nes:   ';
    expect(greetingsOf(lines)).to.deep.equal({ de: 'Hallo! Wie können wir helfen?', fr: 'Bonjour : bienvenue' });
    expect(greetingsOf('  ')).to.equal(null);
    expect(greetingLines({ de: 'Hallo!', fr: 'Bonjour !' })).to.equal('de: Hallo!\nfr: Bonjour !');
  });

  it('send only the settings that changed', () => {
    const { site } = fakeConsoleApi();
    const f = form({
      name: 'Shop',
      allowedOrigins: 'https://shop.example',
      greeting: 'Hi there',
      attachmentMaxBytes: '10',
      attachmentMessageMaxBytes: '20',
    });
    for (const kind of site.attachmentKinds) f.append('attachmentKinds', kind);
    const { key: _k, ...after } = siteInput(f, site);
    expect(changedFields(site, after)).to.deep.equal({ greeting: 'Hi there' });
  });

  it('shape the attachment settings: kinds in their own order, none for off, sizes from MB to bytes', () => {
    const f = form({ name: 'Shop', attachmentMaxBytes: '2.5', attachmentMessageMaxBytes: ' ' });
    for (const kind of ['pdf', 'svg', 'png']) f.append('attachmentKinds', kind);
    expect(siteInput(f)).to.deep.include({ attachmentKinds: ['png', 'pdf'], attachmentMaxBytes: 2_621_440 });
    expect(siteInput(f).attachmentMessageMaxBytes).to.be.NaN;
    expect(siteInput(form({ name: 'Shop' })).attachmentKinds).to.deep.equal([]);
    expect([megabytes(10 * MB), megabytes(1_500_000), bytesOf('20')]).to.deep.equal(['10', '1.43', 20 * MB]);
    // a size the field rounds, left as shown, is the stored size: not a change
    expect(bytesOf('1.43', 1_500_000)).to.equal(1_500_000);
    expect(bytesOf('1.5', 1_500_000)).to.equal(1_572_864);
  });

  it('word a file and why an upload was refused, from the code and its figures', () => {
    expect([typeLabel('image/png'), typeLabel('application/pdf'), typeLabel('text/plain'), typeLabel('image/avif')]).to.deep.equal([
      'PNG image',
      'PDF',
      'Plain text',
      'Image',
    ]);
    expect(attachmentFacts({ mime: 'application/pdf', bytes: 340 * 1024 })).to.equal('PDF · 340 KB');
    expect(refusalSentence('big.png', new UploadRefusal('file_too_large', 413, { limitBytes: 5 * 1024 * 1024 }))).to.equal(
      '“big.png” was not attached: it is larger than the 5 MB this site takes in one file.',
    );
    expect(refusalSentence('logo.svg', new UploadRefusal('file_type_refused', 415, { detected: 'SVG' }))).to.equal(
      '“logo.svg” was not attached: this site does not take SVG files.',
    );
    expect(refusalSentence('a.png', new UploadRefusal('rate_limited', 429, { retryAfterS: 30 }))).to.equal(
      '“a.png” was not attached: too many uploads at once. Try again in 30 s.',
    );
    expect(refusalSentence('a.png', new UploadRefusal('visitor_token_invalid', 401))).to.equal(
      '“a.png” was not attached: your session ended. Sign in again.',
    );
    expect(refusalSentence('a.png', new UploadRefusal('teapot', 418, {}, 'The server is a teapot'))).to.equal(
      '“a.png” was not attached: The server is a teapot.',
    );
  });

  it('write exact times in the operator’s zone and the visitor’s', () => {
    expect(exactTime('2026-01-01T12:00:05Z', 'UTC', 'en-GB')).to.equal('1 Jan 2026, 12:00:05 UTC');
    const t = bothTimes('2026-01-01T12:00:05Z', 'Asia/Tokyo', 'UTC', 'en-GB');
    expect(t.operator).to.equal('1 Jan 2026, 12:00:05 UTC');
    expect(t.visitor).to.equal('1 Jan 2026, 21:00:05 GMT+9');
    expect(bothTimes('2026-01-01T12:00:05Z', 'Not/AZone', 'UTC').visitor).to.equal(null);
    expect(bothTimes('2026-01-01T12:00:05Z', 'UTC', 'UTC').visitor).to.equal(null);
  });

  it('write durations and costs for people', () => {
    expect([duration(850), duration(2400), duration(185_000), duration(null)]).to.deep.equal(['850 ms', '2.4 s', '3 min 5 s', '—']);
    expect([usd(0.00012), usd('0.5'), usd(3.456), usd(null)]).to.deep.equal(['$0.00012', '$0.5', '$3.46', '—']);
  });

  it('name who wrote a message, or why it appeared', () => {
    const m = (role: string, provenance: string | null, label: string | null = null) => ({ role, provenance, provenanceLabel: label });
    expect(provenanceLabel(m('user', null))).to.equal('Visitor');
    expect(provenanceLabel(m('assistant', null))).to.equal('AI');
    expect(provenanceLabel(m('operator', 'operator', 'Ana'))).to.equal('Operator — Ana');
    expect(provenanceLabel(m('assistant', 'intent', 'viewed Pricing'))).to.equal('Because you viewed Pricing');
    expect(provenanceLabel(m('assistant', 'check_in'))).to.equal('Check-in');
    expect(provenanceLabel(m('assistant', 'server', 'Shop'))).to.equal('From Shop');
    expect(provenanceLabel(m('assistant', 'server'), 'Outdoors')).to.equal('From Outdoors');
    expect([
      noticeText(m('notice', 'operator_joined', 'Ana')),
      noticeText(m('notice', 'operator_left', 'Ana')),
      noticeText(m('notice', 'handed_back', 'Olga')),
      noticeText(m('notice', 'handoff_requested')),
    ]).to.deep.equal(['Ana joined', 'Ana left', 'Olga handed the conversation back to the assistant', 'Waiting for a person']);
  });

  it('say why an unsolicited message was refused', () => {
    expect(reasonText('daily_budget')).to.equal('Daily budget used up');
    expect(reasonText('something_new')).to.equal('something new');
  });

  it('name visitors by name, verified id, or an anonymous tag', () => {
    expect(visitorLabel({ id: 'ab-cd-ef-12', externalId: null, name: null })).to.equal('Anonymous abcdef');
    expect(visitorLabel({ id: 'x', externalId: 'u-42', name: null })).to.equal('User u-42');
    expect(visitorLabel({ id: 'x', externalId: 'u-42', name: 'Ada' })).to.equal('Ada (u-42)');
  });

  it('turn refusals into sentences and keep zod’s field errors per field', () => {
    expect(errorText(new ServerError('x', { code: 'UNAUTHORIZED', reason: 'bad_credentials' }))).to.deep.include({
      signedOut: false,
      message: 'That email and password do not match an operator.',
    });
    expect(errorText(new ServerError('x', { code: 'UNAUTHORIZED', reason: 'console_signed_out' })).signedOut).to.be.true;
    expect(
      errorText(new ServerError('x', { code: 'TOO_MANY_REQUESTS', reason: 'sign_in_throttled', retryAfterMs: 4100 })).message,
    ).to.equal('Too many attempts. Try again in 5 s.');
    const bad = new ServerError('x', { code: 'BAD_REQUEST', fieldErrors: { accentColor: ['Use #rrggbb'] } } as ServerError['data']);
    expect(errorText(bad).fields).to.deep.equal({ accentColor: 'Use #rrggbb' });
    expect(errorText(new NetworkError('down')).message).to.contain('cannot be reached');
    // a send's attachment refusals, by reason or as the message itself
    expect(errorText(new ServerError('attachment_unavailable', { code: 'BAD_REQUEST' })).message).to.contain(
      'remove it and attach it again',
    );
    expect(errorText(new ServerError('x', { code: 'BAD_REQUEST', reason: 'message_files_too_large' })).message).to.contain('remove some');
  });

  it('chart the overview: one failures line per kind, totals over the range', () => {
    const point = (t: string, replies: number, kinds: Record<string, number>) => ({
      t,
      conversations: 1,
      replies,
      failures: Object.values(kinds).reduce((a, b) => a + b, 0),
      failuresByKind: kinds,
      ttftP50Ms: 400,
      ttftP95Ms: 900,
      promptTokens: 100,
      completionTokens: 20,
      titleCostUsd: 0.0001,
      replyCostUsd: 0.002,
    });
    const series = {
      bucket: 'day' as const,
      points: [point('2026-01-01T00:00:00Z', 3, { model_timeout: 1 }), point('2026-01-02T00:00:00Z', 4, { rate_limited: 2 })],
    };
    const charts = chartsOf(series);
    expect(charts.map((c) => c.id)).to.deep.equal(['activity', 'ttft', 'failures', 'tokens', 'cost']);
    expect(charts[0]!.x).to.deep.equal([1767225600, 1767312000]);
    expect(charts[0]!.lines[1]).to.deep.include({ label: 'Replies', values: [3, 4] });
    expect(charts[2]!.lines.map((l) => [l.label, l.values])).to.deep.equal([
      ['model timeout', [1, 0]],
      ['rate limited', [0, 2]],
    ]);
    expect(totalsOf(series)).to.deep.include({ replies: 7, failures: 3, promptTokens: 200 });
  });
});
