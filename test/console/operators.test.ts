import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bootstrapOwner, DEV_OWNER_EMAIL } from '../../api/src/operators/bootstrap-owner.ts';
import { hashPassword, verifyPassword } from '../../api/src/operators/password.ts';
import { createOperatorSession, CONSOLE_COOKIE } from '../../api/src/operators/operator-sessions.ts';
import { loadConfig } from '../../api/src/config.ts';
import { TestHeed } from '../support/harness.ts';
import { consoleClient, signedInOperator, type TestOperator } from '../support/console.ts';
import { consoleProcedures, rawCall, reasonOf } from './raw-call.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

const errorOf = async (call: Promise<unknown>) => {
  try {
    await call;
    return null;
  } catch (err) {
    const data = (err as { data?: { code?: string; reason?: string | null } }).data;
    return { code: data?.code, reason: data?.reason ?? null };
  }
};

const emailOf = (what: string) => `${what}-${randomUUID().slice(0, 8)}@example.test`;

/**
 * What an agent may call: their own profile, reading the team and the sites (their intent rules, API key names,
 * knowledge sources, unanswered questions and proactive figures too), and everything about conversations and the overview. Every other
 * console procedure must be owner-only (what deleting a site would remove, too).
 */
const AGENT_MAY = [
  /^console\.auth\./,
  /^console\.profile\./,
  /^console\.conversations\./,
  /^console\.overview\./,
  /^console\.model\.status$/,
  /^console\.sites\.(list|get)$/,
  /^console\.operators\.list$/,
  /^console\.proactive\.(intentRules\.list|apiKeys\.list|stats)$/,
  /^console\.knowledge\.(sources|unanswered)$/,
  /^console\.visitors\.(profile|erasure)$/,
  /^console\.cannedReplies\.list$/,
];

describe('roles', () => {
  test('every owner-only console procedure refuses an agent with FORBIDDEN owner_only, and changes nothing', async () => {
    const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
    const owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
    const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true, key: true } });
    // inputs that would succeed for an owner, where a test knows one; {} otherwise (the role is checked first)
    const valid: Record<string, unknown> = {
      'console.sites.create': { name: 'Agent site' },
      'console.sites.update': { siteId: site.id, name: 'Renamed by an agent' },
      'console.sites.delete': { siteId: site.id, confirmKey: site.key },
      'console.sites.rotateIdentitySecret': { siteId: site.id },
      'console.operators.invite': { email: emailOf('via-agent'), name: 'Via agent', role: 'owner' },
      'console.operators.remove': { operatorId: owner.id },
    };
    const ownerOnly = consoleProcedures().filter(({ path }) => !AGENT_MAY.some((re) => re.test(path)));
    expect(ownerOnly.map((p) => p.path)).toEqual(expect.arrayContaining(Object.keys(valid)));
    for (const { path, type } of ownerOnly) {
      const answer = await rawCall(heed.url, path, type, valid[path] ?? {}, { cookie: agent.cookie, origin: heed.url });
      expect([path, answer.status, reasonOf(answer)]).toEqual([path, 403, 'owner_only']);
    }
    const after = await heed.services.db.site.findUniqueOrThrow({ where: { id: site.id }, select: { name: true, identitySecrets: true } });
    expect(after).toEqual({ name: 'Test site', identitySecrets: [] });
    expect(await heed.services.db.operator.count({ where: { id: owner.id } })).toBe(1);
    // and the agent does read
    expect(await agent.api.console.sites.list.query()).toEqual(expect.arrayContaining([expect.objectContaining({ key: heed.siteKey })]));
    expect(await agent.api.console.operators.list.query()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: agent.id, role: 'agent' })]),
    );
  });
});

describe('invitations', () => {
  let owner: TestOperator;
  beforeAll(async () => {
    owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  });

  test('an owner invites: the link is shown once, only its hash is stored; the invitee sets a password, is signed in, and the link is spent', async () => {
    const email = emailOf('agent');
    const { operator, inviteUrl } = await owner.api.console.operators.invite.mutate({
      email: email.toUpperCase(),
      name: '  Bo   Agent ',
      role: 'agent',
    });
    // no sites named: no site, never every site
    expect(operator).toEqual({
      id: expect.any(String),
      email,
      name: 'Bo Agent',
      role: 'agent',
      allSites: false,
      siteIds: [],
      pending: true,
      createdAt: expect.any(String),
    });
    const token = new RegExp(`^${heed.url}/admin/#/invite/([\\w-]{43})$`).exec(inviteUrl)?.[1];
    expect(token).toBeDefined();
    const row = await heed.services.db.operator.findUniqueOrThrow({
      where: { email },
      select: { inviteTokenHash: true, inviteExpiresAt: true, passwordHash: true },
    });
    expect(row.inviteTokenHash).toBe(createHash('sha256').update(token!).digest('hex'));
    expect(row.passwordHash).toBeNull();
    expect(row.inviteExpiresAt!.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    // the list shows the invitation pending, never a hash or a token
    const listed = await owner.api.console.operators.list.query();
    expect(listed.find((o) => o.email === email)).toMatchObject({ pending: true });
    expect(JSON.stringify(listed)).not.toMatch(/scrypt|inviteToken|passwordHash/);
    expect(JSON.stringify(listed)).not.toContain(row.inviteTokenHash!);

    const password = `bo-password-${randomUUID()}`;
    const accepted = await rawCall(
      heed.url,
      'console.auth.acceptInvite',
      'mutation',
      { token, name: 'Bo', password },
      { origin: heed.url },
    );
    expect(accepted.body.result?.data).toEqual({ operator: { id: operator.id, email, name: 'Bo', role: 'agent' } });
    const cookie = accepted.headers.get('set-cookie')!.split(';')[0]!;
    expect(await consoleClient(heed.url, cookie).console.auth.me.query()).toMatchObject({ email, role: 'agent' });
    expect(await verifyPassword(password, (await heed.services.db.operator.findUniqueOrThrow({ where: { email } })).passwordHash)).toBe(
      true,
    );
    // the same link again: spent
    const again = await rawCall(
      heed.url,
      'console.auth.acceptInvite',
      'mutation',
      { token, name: 'Mallory', password: 'another-password-123' },
      { origin: heed.url },
    );
    expect([again.status, reasonOf(again)]).toEqual([401, 'invite_invalid']);
    // inviting a member who exists is a conflict
    expect(await errorOf(owner.api.console.operators.invite.mutate({ email, name: 'Bo', role: 'owner' }))).toEqual({
      code: 'CONFLICT',
      reason: 'operator_exists',
    });
  });

  test('an invitation names the agent’s sites, or all sites explicitly; an unknown site is refused', async () => {
    const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
    const some = await owner.api.console.operators.invite.mutate({ email: emailOf('some'), name: 'Some', role: 'agent', sites: [site.id] });
    expect(some.operator).toMatchObject({ allSites: false, siteIds: [site.id] });
    const all = await owner.api.console.operators.invite.mutate({ email: emailOf('all'), name: 'All', role: 'agent', sites: 'all' });
    expect(all.operator).toMatchObject({ allSites: true, siteIds: [] });
    const unknown = owner.api.console.operators.invite.mutate({
      email: emailOf('unknown'),
      name: 'U',
      role: 'agent',
      sites: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(await errorOf(unknown)).toEqual({ code: 'BAD_REQUEST', reason: 'unknown_site' });
  });

  test('an expired link is refused; inviting the email again makes a new link and the old one stops working', async () => {
    const email = emailOf('late');
    const first = await owner.api.console.operators.invite.mutate({ email, name: 'Late', role: 'agent' });
    const firstToken = first.inviteUrl.split('/').at(-1)!;
    const second = await owner.api.console.operators.invite.mutate({ email, name: 'Late', role: 'owner' });
    const secondToken = second.inviteUrl.split('/').at(-1)!;
    expect(second.operator).toMatchObject({ id: first.operator.id, role: 'owner', pending: true });
    const accept = (token: string) =>
      rawCall(
        heed.url,
        'console.auth.acceptInvite',
        'mutation',
        { token, name: 'Late', password: 'late-password-1234' },
        { origin: heed.url },
      );
    expect(reasonOf(await accept(firstToken))).toBe('invite_invalid');
    await heed.services.db.operator.update({ where: { email }, data: { inviteExpiresAt: new Date(Date.now() - 1000) } });
    expect(reasonOf(await accept(secondToken))).toBe('invite_invalid');
    // a short password is a field error, not a 500
    const short = await rawCall(
      heed.url,
      'console.auth.acceptInvite',
      'mutation',
      { token: secondToken, name: 'Late', password: 'short' },
      { origin: heed.url },
    );
    expect([short.status, Object.keys(short.body.error?.data.fieldErrors ?? {})]).toEqual([400, ['password']]);
  });
});

describe('removing operators', () => {
  test('an owner removes an agent: every session of theirs is signed out at once', async () => {
    const owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
    const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
    const { token } = await createOperatorSession(heed.services.db, agent.id);
    const otherDevice = consoleClient(heed.url, `${CONSOLE_COOKIE}=${token}`);
    expect(await agent.api.console.sites.list.query()).toEqual(expect.any(Array));
    expect(await owner.api.console.operators.remove.mutate({ operatorId: agent.id })).toEqual({ removed: true });
    for (const client of [agent.api, otherDevice]) {
      expect(await client.console.auth.me.query()).toBeNull();
      expect(await errorOf(client.console.sites.list.query())).toEqual({ code: 'UNAUTHORIZED', reason: 'console_signed_out' });
    }
    expect(await errorOf(owner.api.console.operators.remove.mutate({ operatorId: agent.id }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  test('nobody removes themselves, and the last owner stays even when two owners remove each other at once', async () => {
    await heed.services.db.operator.deleteMany({ where: { role: 'owner' } });
    const a = await signedInOperator(heed.services, heed.url, { role: 'owner' });
    const b = await signedInOperator(heed.services, heed.url, { role: 'owner' });
    expect(await errorOf(a.api.console.operators.remove.mutate({ operatorId: a.id }))).toEqual({
      code: 'FORBIDDEN',
      reason: 'remove_self',
    });
    const results = await Promise.all([
      errorOf(a.api.console.operators.remove.mutate({ operatorId: b.id })),
      errorOf(b.api.console.operators.remove.mutate({ operatorId: a.id })),
    ]);
    expect(await heed.services.db.operator.count({ where: { role: 'owner' } })).toBe(1);
    // one removal went through; the other was refused (last owner) or found its author removed already (signed out)
    expect(
      results.filter((r) => r === null),
      JSON.stringify(results),
    ).toHaveLength(1);
    expect(
      results.find((r) => r !== null),
      JSON.stringify(results),
    ).toMatchObject({ reason: expect.stringMatching(/^(last_owner|console_signed_out)$/) });
  });
});

describe('the first owner', () => {
  // a getter: the stack starts after this block is collected
  const quiet = {
    log: () => {},
    get bus() {
      return heed.services.bus;
    },
  };

  test('development with no operator: npm start creates admin@localhost and prints its password once; the password signs in', async () => {
    await heed.services.db.operator.deleteMany({});
    const printed: string[] = [];
    const services = { db: heed.services.db, config: { ...heed.config, NODE_ENV: 'development' as const }, ...quiet };
    await bootstrapOwner(services, { write: (t: string) => printed.push(t) });
    await bootstrapOwner(services, { write: (t: string) => printed.push(t) });
    expect(printed).toHaveLength(1);
    const password = /with password (\S+) /.exec(printed[0]!)?.[1];
    expect(password).toMatch(/^[\w-]{24}$/);
    const answer = await rawCall(heed.url, 'console.auth.signIn', 'mutation', { email: DEV_OWNER_EMAIL, password }, { origin: heed.url });
    expect(answer.body.result?.data).toMatchObject({ operator: { email: DEV_OWNER_EMAIL, role: 'owner' } });
  }, 60_000);

  test('production with no operator: one log line saying how to create one, and no account', async () => {
    await heed.services.db.operator.deleteMany({});
    const lines: string[] = [];
    await bootstrapOwner(
      {
        db: heed.services.db,
        bus: heed.services.bus,
        config: { ...heed.config, NODE_ENV: 'production' },
        log: (l: string) => void lines.push(l),
      },
      { write: () => {} },
    );
    expect(lines).toEqual([expect.stringContaining('npm run admin:create')]);
    expect(await heed.services.db.operator.count()).toBe(0);
  });

  test('HEED_ADMIN_EMAIL + HEED_ADMIN_PASSWORD create that owner, and a changed password replaces the old one and signs its sessions out', async () => {
    const email = emailOf('env-owner');
    const config = (password: string) => ({ ...heed.config, HEED_ADMIN_EMAIL: email.toUpperCase(), HEED_ADMIN_PASSWORD: password });
    await bootstrapOwner({ db: heed.services.db, config: config('first-password-123'), ...quiet });
    const row = await heed.services.db.operator.findUniqueOrThrow({
      where: { email },
      select: { id: true, role: true, passwordHash: true },
    });
    expect(row.role).toBe('owner');
    expect(await verifyPassword('first-password-123', row.passwordHash)).toBe(true);
    const { token } = await createOperatorSession(heed.services.db, row.id);
    const client = consoleClient(heed.url, `${CONSOLE_COOKIE}=${token}`);
    await bootstrapOwner({ db: heed.services.db, config: config('first-password-123'), ...quiet });
    expect(await client.console.auth.me.query()).not.toBeNull(); // same env on the next start: nothing changes
    await bootstrapOwner({ db: heed.services.db, config: config('second-password-456'), ...quiet });
    expect(await client.console.auth.me.query()).toBeNull();
    const after = await heed.services.db.operator.findUniqueOrThrow({ where: { email }, select: { passwordHash: true } });
    expect(await verifyPassword('second-password-456', after.passwordHash)).toBe(true);
  }, 60_000);

  test('HEED_ADMIN_EMAIL and HEED_ADMIN_PASSWORD come together, with a password of 12+ characters, or the start is refused', () => {
    expect(() => loadConfig({ HEED_ADMIN_EMAIL: 'ana@example.com' })).toThrow(/set both HEED_ADMIN_EMAIL and HEED_ADMIN_PASSWORD/);
    expect(() => loadConfig({ HEED_ADMIN_EMAIL: 'ana@example.com', HEED_ADMIN_PASSWORD: 'short' })).toThrow(
      /HEED_ADMIN_PASSWORD: use at least 12 characters/,
    );
    expect(() => loadConfig({ HEED_ADMIN_EMAIL: 'not an email', HEED_ADMIN_PASSWORD: 'long-enough-password' })).toThrow(/HEED_ADMIN_EMAIL/);
    expect(loadConfig({ HEED_ADMIN_EMAIL: 'admin@localhost', HEED_ADMIN_PASSWORD: 'long-enough-password' }).HEED_ADMIN_EMAIL).toBe(
      'admin@localhost',
    );
  });

  const adminCreate = (args: string[], stdin: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npx', ['tsx', 'scripts/admin-create.ts', ...args], { env: heed.childEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });

  test('npm run admin:create reads the password from piped stdin (never argv), creates the owner, and makes an existing agent an owner', async () => {
    const email = emailOf('cli-owner');
    const password = `cli-password-${randomUUID()}`;
    const created = await adminCreate(['--email', email, '--name', 'Cli Owner'], `${password}\n`);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining(`console owner ${email} created`) });
    expect(created.stdout + created.stderr).not.toContain(password);
    const answer = await rawCall(heed.url, 'console.auth.signIn', 'mutation', { email, password }, { origin: heed.url });
    expect(answer.body.result?.data).toMatchObject({ operator: { email, name: 'Cli Owner', role: 'owner' } });

    const agentEmail = emailOf('promoted');
    await heed.services.db.operator.create({
      data: { email: agentEmail, name: 'Agent', role: 'agent', passwordHash: await hashPassword('old-password-1234') },
    });
    const promoted = await adminCreate(['--email', agentEmail], 'new-password-5678\n');
    expect(promoted.code).toBe(0);
    expect(await heed.services.db.operator.findUniqueOrThrow({ where: { email: agentEmail }, select: { role: true } })).toEqual({
      role: 'owner',
    });

    const short = await adminCreate(['--email', emailOf('short')], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    const noEmail = await adminCreate([], `${password}\n`);
    expect([noEmail.code, noEmail.stderr]).toEqual([1, expect.stringContaining('usage: npm run admin:create')]);
  }, 120_000);
});
