import { expect, test } from 'vitest';
import { createLogger } from './logger.ts';
import { memoryDestination } from './memory-destination.ts';
import { scoped } from './scoped.ts';
import { lineLog } from './line-log.ts';

function logged() {
  const sink = memoryDestination();
  return { logger: createLogger('info', sink), records: () => sink.lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

test('every line is one JSON object with a level label, an ISO time and the message', () => {
  const { logger, records } = logged();
  logger.info('worker started');
  logger.warn({ waitMs: 1200 }, 'conversation waits');
  expect(records()).toEqual([
    expect.objectContaining({ level: 'info', msg: 'worker started', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }),
    expect.objectContaining({ level: 'warn', msg: 'conversation waits', waitMs: 1200 }),
  ]);
});

test('known sensitive fields are redacted at the top level and one level down', () => {
  const { logger, records } = logged();
  logger.info({ content: 'my password is x', token: 'v1.abc', headers: { authorization: 'Bearer s', cookie: 'sid=1' } }, 'sent');
  const [line] = records();
  expect(line).toMatchObject({
    content: '[redacted]',
    token: '[redacted]',
    headers: { authorization: '[redacted]', cookie: '[redacted]' },
  });
  expect(JSON.stringify(line)).not.toMatch(/password is|v1\.abc|Bearer s|sid=/);
});

test('a request shows its method and path, never its query string or headers', () => {
  const { logger, records } = logged();
  const url = '/trpc/events.subscribe?input=%7B%7D&connectionParams=%7B%22ticket%22%3A%22t.secret%22%7D';
  logger.info({ req: { method: 'GET', url, headers: { authorization: 'Bearer s' } } }, 'request');
  expect(records()[0]).toMatchObject({ req: { method: 'GET', path: '/trpc/events.subscribe' } });
  expect(JSON.stringify(records())).not.toMatch(/secret|Bearer/);
});

test('an error is described by kind and code; its message never becomes the line message', () => {
  const { logger, records } = logged();
  const prisma = Object.assign(new Error('Invalid `prisma.message.create()` invocation: { content: "secret words" }'), {
    name: 'PrismaClientKnownRequestError',
    code: 'P2002',
  });
  logger.error(prisma);
  logger.error({ err: prisma });
  logger.error({ err: prisma }, 'send failed');
  logger.warn({ cause: prisma, reason: new Error('first line\nsecond secret line') }, 'x');
  logger.warn({ detail: Object.assign(prisma, { meta: { message: 'secret row' } }) }, 'y');
  const text = JSON.stringify(records());
  expect(text).not.toContain('secret');
  expect(records().map((r) => r.msg)).toEqual([
    'PrismaClientKnownRequestError P2002',
    'PrismaClientKnownRequestError P2002',
    'send failed',
    'x',
    'y',
  ]);
  expect(records()[2]).toMatchObject({ err: 'PrismaClientKnownRequestError P2002' });
  expect(records()[3]).toMatchObject({ cause: 'PrismaClientKnownRequestError P2002', reason: 'Error: first line' });
  expect(records()[4]).toMatchObject({ detail: 'PrismaClientKnownRequestError P2002' });
});

test('scoped dependencies carry their scope on both the logger and the older log(line, err)', () => {
  const { logger, records } = logged();
  const worker = scoped({ logger, log: lineLog(logger), other: 1 }, { workerId: 'w1' });
  const run = scoped(worker, { runId: 'r1', conversationId: 'c1' });
  run.logger.info('run released');
  run.log('run failed: model_timeout', new Error('timeout'));
  expect(run.other).toBe(1);
  expect(records()).toEqual([
    expect.objectContaining({ level: 'info', workerId: 'w1', runId: 'r1', conversationId: 'c1', msg: 'run released' }),
    expect.objectContaining({
      level: 'error',
      workerId: 'w1',
      runId: 'r1',
      conversationId: 'c1',
      msg: 'run failed: model_timeout',
      err: 'Error: timeout',
    }),
  ]);
});

test('LOG_LEVEL drops the lines below it', () => {
  const sink = memoryDestination();
  const logger = createLogger('warn', sink);
  logger.info('quiet');
  logger.debug('quieter');
  logger.warn('loud');
  expect(sink.lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
});
