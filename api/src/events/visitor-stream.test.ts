import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../../../test/support/harness.ts';
import type { Db } from '../db/client.ts';
import { streamVisitorEvents, type StreamItem } from './visitor-stream.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test('a client that leaves during a long catch-up ends its stream, and no further page of the log is read', async () => {
  const visitor = await heed.visitor();
  // three pages of the log (a page is 500 rows)
  await heed.services.db.$executeRaw`
    INSERT INTO "Event" ("visitorId", type, payload)
    SELECT ${visitor.visitorId}::uuid, 'message.created', jsonb_build_object('type', 'test.filler', 'n', n)
    FROM generate_series(1, 1200) AS n`;
  // the real client, observed: how many pages the stream reads
  let pages = 0;
  const db = heed.services.db.$extends({
    query: {
      event: {
        findMany: ({ args, query }) => {
          pages++;
          return query(args);
        },
      },
    },
  }) as unknown as Db;
  const leave = new AbortController();
  const got: StreamItem[] = [];
  const sink = {
    write: (item: StreamItem) => {
      got.push(item);
      if (got.length === 10) leave.abort();
      return true;
    },
    drained: () => Promise.resolve(),
  };
  await streamVisitorEvents({ ...heed.services, db }, visitor.visitorId, '0', sink, leave.signal);
  expect(got).toHaveLength(10);
  expect(pages).toBe(1);
});
