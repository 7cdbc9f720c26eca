import { expect, test } from 'vitest';
import { createLogger } from './logger.ts';
import { memoryDestination } from './memory-destination.ts';

function logged() {
  const sink = memoryDestination();
  return { logger: createLogger('info', sink), text: () => sink.lines.join('\n'), records: () => sink.lines.map((l) => JSON.parse(l)) };
}

test('a client’s address and an email address are redacted wherever a line names them', () => {
  const { logger, text, records } = logged();
  logger.info({ ip: '203.0.113.77', clientIp: '203.0.113.78', remoteAddress: '203.0.113.79' }, 'top level');
  logger.info(
    { visitor: { email: 'ana@example.com', contactEmail: 'ana@home.example' }, socket: { remoteAddress: '198.51.100.1' } },
    'one down',
  );
  expect(records()[0]).toMatchObject({ ip: '[redacted]', clientIp: '[redacted]', remoteAddress: '[redacted]' });
  expect(records()[1]).toMatchObject({ visitor: { email: '[redacted]', contactEmail: '[redacted]' } });
  expect(text()).not.toMatch(/203\.0\.113|198\.51\.100|example/);
});

test('headers that carry a forwarded address are redacted, on a request and on their own', () => {
  const { logger, text } = logged();
  const headers = { 'x-forwarded-for': '203.0.113.77, 10.0.0.1', 'x-real-ip': '203.0.113.77', forwarded: 'for=203.0.113.77' };
  logger.info({ headers }, 'headers');
  logger.info({ upstream: { headers } }, 'nested headers');
  expect(text()).not.toContain('203.0.113.77');
  expect(text()).toContain('[redacted]');
});
