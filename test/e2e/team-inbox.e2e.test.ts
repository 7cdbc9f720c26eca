import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ScriptedReply } from '../../api/src/model-server/types.ts';
import { hashPassword } from '../../api/src/operators/password.ts';
import { seriousA11yViolations } from '../support/browser.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { startEmailTimers } from '../../api/src/email/email-timers.ts';
import type { PassTimer } from '../../api/src/timers/pass-timer.ts';

/**
 * The team's inbox end to end, in real Chromium, the way a customer runs Heed (production mode,
 * the shop on another origin) with a real SMTP server in this process: a visitor asks for a
 * person → the conversation is assigned to the site's signed-in agent, whose console raises a
 * browser notification, and after the delay an email → the visitor leaves an address and closes
 * the tab → the agent reads the conversation side by side with the visitor's profile, writes a
 * note (never shown to the visitor or the model), takes over and replies with a canned reply
 * inserted by `/` → the visitor's email arrives with a link that reopens the conversation with
 * the reply → resolved, the visitor writes again and it reopens. The inbox fits 390 px.
 * Needs `npm run build:widget && npm run build:console` first (`npm test` does both).
 */
const env: Record<string, string> = { EMAIL_ALERT_DELAY_MS: '2500', EMAIL_PASS_MS: '250' };
let smtp: SmtpInbox;
// before the stack starts: its SMTP_URL is this server's
beforeAll(async () => {
  smtp = await SmtpInbox.start();
  env.SMTP_URL = smtp.url;
});
const site = DemoSite.use(env);

const NOTE = 'NOTE-7731 wholesale customer, offer the trade price';
const CANNED = 'Orders ship from Oslo within 2 working days; the tracking link comes by email.';
const VISITOR_EMAIL = 'visitor@shop.test';

let host: HostSite;
let agent: TestOperator;
let agentContext: BrowserContext;
/** the email passes, as a worker process runs them */
let email: PassTimer;
let console_: Page;
const failures: string[] = [];

declare global {
  interface Window {
    inboxNotifications: { title: string; body: string }[];
  }
}

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url)))
    throw new Error('Build the console first: npm run build:console');
  const { db } = site.heed.services;
  host = await startHostSite(
    {
      '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outdoor shop</title></head>
        <body><h1>Boots</h1>${widgetTag(site.heed.url)}</body></html>`,
    },
    { host: 'localhost' },
  );
  const shop = await db.site.update({
    where: { key: 'demo' },
    data: { name: 'Outdoor shop', allowedOrigins: [host.url], handoffEnabled: true, autoAssign: true, shareVisitorPages: true },
    select: { id: true },
  });
  site.heed.services.sites.clear();
  email = startEmailTimers(site.heed.services);
  agent = await signedInOperator(site.heed.services, site.heed.url, { role: 'agent', name: 'Ana', sites: [shop.id] });
  // an agent who accepted their invitation (pending ones are never emailed alerts)
  await db.operator.update({ where: { id: agent.id }, data: { passwordHash: await hashPassword('a long and known password') } });
  await db.cannedReply.create({ data: { siteId: shop.id, shortcut: 'shipping', content: CANNED } });

  agentContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await agentContext.grantPermissions(['notifications'], { origin: site.heed.url });
  const [name, value] = agent.cookie.split('=') as [string, string];
  await agentContext.addCookies([{ name, value, url: site.heed.url }]);
  await agentContext.addInitScript(() => {
    const Browser = window.Notification;
    window.inboxNotifications = [];
    window.Notification = class extends Browser {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        window.inboxNotifications.push({ title, body: options?.body ?? '' });
      }
    };
  });
  console_ = await agentContext.newPage();
  console_.setDefaultTimeout(20_000);
  console_.on('pageerror', (err) => failures.push(`console pageerror ${err.message}`));
  await recordCspViolations(console_);
});

afterAll(async () => {
  await email?.stop();
  await agentContext?.close();
  await host?.close();
  await smtp?.stop();
});

/** Runs are answered in order; title checks get a title whenever they come. */
const runReplies: ScriptedReply[] = [];
const answerRuns = (...replies: ScriptedReply[]) => {
  runReplies.push(...replies);
  site.heed.model.setResponder((req) =>
    req.body.response_format !== undefined
      ? { text: JSON.stringify({ title: 'Shipping to Oslo', changed: true }) }
      : (runReplies.shift() ?? { text: 'Noted.' }),
  );
};

const list = () => console_.getByRole('list', { name: 'Conversations', exact: true });
const messages = () => console_.getByRole('list', { name: 'Messages' });

test('a visitor asks for a person: the assigned agent is told, writes a note and a canned reply, and the visitor hears back by email', async () => {
  const { db } = site.heed.services;
  await console_.goto(`${site.heed.url}/admin/#/conversations?filter=mine`);
  await console_.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
  expect(await console_.getByRole('button', { name: 'Mine' }).getAttribute('aria-pressed')).toBe('true');

  // the visitor asks for a person on the shop
  const visitorContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const visitor = await visitorContext.newPage();
  visitor.on('pageerror', (err) => failures.push(`visitor pageerror ${err.message}`));
  await visitor.goto(host.url);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  answerRuns({ toolCalls: [{ name: 'handoff_to_human', arguments: {} }] }, { text: 'A person from Outdoor shop will reply here.' });
  const box = visitor.getByRole('textbox', { name: 'Message' });
  await box.fill('When does my order ship? I would like to talk to a person.');
  await box.press('Enter');
  await visitor.getByText('A person from Outdoor shop will reply here.').waitFor();
  const { id: conversationId } = await db.conversation.findFirstOrThrow({ select: { id: true }, orderBy: { createdAt: 'desc' } });

  // assigned to the site's signed-in agent: in her "Mine", with a browser notification
  const row = list().getByRole('listitem').filter({ hasText: 'Assigned to you' });
  await row.waitFor();
  await expect.poll(() => console_.evaluate(() => window.inboxNotifications.map((n) => n.title))).toContain('Visitor waiting for a person');
  await expect.poll(() => console_.title()).toMatch(/^\(1\) /);

  // the visitor leaves an address for replies, and closes the tab
  await visitor.getByRole('textbox', { name: 'Your email' }).fill(VISITOR_EMAIL);
  await visitor.getByRole('button', { name: 'Email me' }).click();
  await visitor.getByText(`We will email ${VISITOR_EMAIL}`).waitFor();
  await visitor.close();

  // the agent did not open it: after the delay, an email tells her
  const alert = await smtp.next((m) => m.to.includes(agent.email), 20_000);
  expect(alert.subject).toBe('A visitor needs you on Outdoor shop');
  expect(alert.text).toContain(`/admin/#/conversations/${conversationId}`);

  // she opens it from the keyboard: the conversation beside the list, the visitor beside it
  await row.locator('heed-conversation-row button').focus();
  await console_.keyboard.press('Enter');
  await expect.poll(() => new URL(console_.url()).hash).toBe(`#/conversations/${conversationId}?filter=mine`);
  await messages().getByText('When does my order ship?').waitFor();
  const visitorPane = console_.getByRole('complementary', { name: 'Visitor' });
  await visitorPane.getByText(host.url, { exact: false }).first().waitFor();
  expect(await list().isVisible()).toBe(true);

  // a note: the team's only
  await console_.keyboard.press('Escape');
  await expect.poll(() => new URL(console_.url()).hash).toBe('#/conversations?filter=mine');
  await console_.keyboard.press('Enter');
  await messages().waitFor();
  await console_.keyboard.press('r');
  const writer = console_.getByRole('textbox', { name: 'Note' });
  await expect.poll(() => writer.evaluate((el) => el.matches(':focus'))).toBe(true);
  await writer.fill(NOTE);
  await console_.getByRole('button', { name: 'Add note' }).click();
  await messages().getByText('Internal note — Ana').waitFor();

  // she takes over and replies with the canned reply, found by typing /
  answerRuns({ text: 'Anything else I can help with?' });
  await console_.getByRole('button', { name: 'Take over' }).click();
  const reply = console_.getByRole('textbox', { name: 'Reply' });
  await expect.poll(() => reply.evaluate((el) => el.matches(':focus'))).toBe(true);
  await reply.pressSequentially('Hi! /ship');
  await console_.getByRole('option', { name: /shipping/ }).waitFor();
  await reply.press('Enter');
  expect(await reply.inputValue()).toBe(`Hi! ${CANNED}`);
  await reply.press('Control+Enter');
  await messages().getByText(CANNED).waitFor();

  // the visitor left: the reply reaches them by email, with a link back to the conversation
  const mail = await smtp.next((m) => m.to.includes(VISITOR_EMAIL), 20_000);
  expect(mail.text).toContain(CANNED);
  expect(mail.text).not.toContain('NOTE-7731');
  const link = /(http\S+#heed-resume=\S+)/.exec(mail.text)?.[1];
  expect(link?.startsWith(host.url)).toBe(true);

  // the link opens the conversation in a browser that never saw it, the reply in it
  const elsewhere = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const back = await elsewhere.newPage();
  await back.goto(link!);
  await back.getByText(CANNED).waitFor();
  expect(await back.evaluate(() => location.hash)).toBe('');
  // the visitor's page, shadow roots included, holds no word of the note
  expect(await back.getByText('NOTE-7731').count()).toBe(0);

  // resolved; the visitor writes again and it is open again
  await console_.getByRole('button', { name: 'Hand back' }).click();
  await console_.getByRole('button', { name: 'Resolve', exact: true }).click();
  await console_.getByText('Resolved', { exact: true }).first().waitFor();
  await back.getByText('Did this help?').waitFor();
  await back.getByRole('button', { name: 'Helpful', exact: true }).click();
  const again = back.getByRole('textbox', { name: 'Message' });
  await again.fill('One more thing: can I change the address?');
  await again.press('Enter');
  await expect
    .poll(async () => (await db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { status: true } })).status)
    .toBe('open');
  await console_.getByRole('button', { name: 'Resolve', exact: true }).waitFor();
  await back.getByText('Anything else I can help with?').waitFor();

  // the note never reached the model or the visitor's events
  const sent = JSON.stringify(site.heed.model.requests.map((r) => r.body));
  expect(sent).toContain('change the address');
  expect(sent).not.toContain('NOTE-7731');
  const events = await db.event.findMany({ where: { conversationId }, select: { payload: true } });
  expect(JSON.stringify(events)).not.toContain('NOTE-7731');
  // the count is of what people wrote (the visitor's 2, the assistant's 2, Ana's 1), no notices or notes
  const transcriptRow = list().getByRole('listitem').filter({ hasText: 'Assigned to you' });
  await expect.poll(() => transcriptRow.textContent()).toContain('5 messages');

  // the overview's people figures hold what happened: Ana's first response, and the visitor's 👍
  const { people } = await agent.api.console.overview.series.query({ range: '24h' });
  expect(people.operators.find((o) => o.operator?.id === agent.id)).toMatchObject({ firstResponses: 1, helpful: 1, notHelpful: 0 });
  expect(people.total.firstResponseP50S).not.toBeNull();

  expect(await seriousA11yViolations(console_)).toEqual([]);
  expect(await cspViolations(console_)).toEqual([]);
  expect(failures).toEqual([]);
  await elsewhere.close();
  await visitorContext.close();
});

test('the inbox fits 10 rows at 1280×800, and one pane at a time at 390 px without sideways scrolling', async () => {
  const { db } = site.heed.services;
  const { id: visitorId } = await db.visitor.findFirstOrThrow({ select: { id: true } });
  const siteRow = await db.site.findUniqueOrThrow({ where: { key: 'demo' }, select: { id: true } });
  for (let i = 0; i < 12; i++) {
    await db.conversation.create({
      data: { siteId: siteRow.id, visitorId, title: `Question ${i + 1} about boots`, excerpt: 'The Ridge 40 comes in green and grey.' },
    });
  }
  await console_.goto(`${site.heed.url}/admin/#/conversations`);
  await expect.poll(() => list().getByRole('listitem').count()).toBeGreaterThanOrEqual(12);
  const fullyShown = await console_.evaluate(() => {
    const app = document.querySelector('heed-console-app')!.shadowRoot!;
    const inbox = app.querySelector('heed-console-inbox')!.shadowRoot!;
    const pane = inbox.querySelector('.list-pane')!.getBoundingClientRect();
    const rows = [...inbox.querySelector('heed-console-conversations')!.shadowRoot!.querySelectorAll('.main-list li')];
    return rows.filter((r) => {
      const box = r.getBoundingClientRect();
      return box.top >= pane.top && box.bottom <= Math.min(pane.bottom, innerHeight);
    }).length;
  });
  expect(fullyShown).toBeGreaterThanOrEqual(10);

  await console_.setViewportSize({ width: 390, height: 800 });
  const conversationId = (await db.conversation.findFirstOrThrow({ where: { status: 'open', assigneeId: agent.id }, select: { id: true } }))
    .id;
  for (const hash of ['#/conversations', `#/conversations/${conversationId}`]) {
    await console_.goto(`${site.heed.url}/admin/${hash}`);
    await console_.getByRole('heading', { level: 1 }).first().waitFor();
    await expect.poll(() => console_.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  }
  // one pane at a time: the open conversation, with the way back to the list
  expect(await list().isVisible()).toBe(false);
  await console_.getByRole('link', { name: '← Back to the list' }).click();
  await list().waitFor();
  expect(await seriousA11yViolations(console_)).toEqual([]);
});
