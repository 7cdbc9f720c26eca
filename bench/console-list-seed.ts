import pg from 'pg';

/** What the seed wrote, printed beside the figures. */
export interface ConsoleSeed {
  sites: string[];
  conversations: number;
  visitors: number;
  messages: number;
  runs: number;
  inputRequests: number;
  operatorReads: number;
  /** a word in about 1 % of conversations' messages, and one in far fewer */
  searchWords: { common: string; rare: string };
  seedMs: number;
}

/** Proportions of a busy deployment: most conversations answered, a few failed, live or asking. */
const SHAPE = {
  conversations: 100_000,
  visitors: 40_000,
  /** two exchanges each: visitor, assistant, visitor, assistant */
  messagesPerConversation: 4,
  /** 1 in 50 conversations' latest reply failed (2 %) */
  failedEvery: 50,
  /** 1 in 200 has a visitor message waiting (live, 0.5 %) */
  liveEvery: 200,
  /** 1 in 100 ends on an open question (input needed, 1 %) */
  askingEvery: 100,
  days: 90,
};

/** Words messages are made of: a few hundred, as support chats reuse a small vocabulary. */
const WORDS = (
  'order refund shipping delivery parcel invoice account password login reset payment card cancel return exchange size colour ' +
  'price discount coupon code warranty repair broken missing late address change email phone subscription plan upgrade ' +
  'downgrade billing receipt tax store opening hours weekend holiday stock available restock preorder gift wrap message ' +
  'tracking number courier pickup locker damaged wrong item color small large medium fit quality material cotton wool ' +
  'leather battery charger cable screen keyboard mouse laptop phone tablet watch strap band lens camera printer ink paper'
)
  .split(' ')
  .filter(Boolean);

/**
 * Fills an empty Heed database with `SHAPE` in a few set-based statements (generate_series, no
 * row-by-row inserts): 3 sites (70 / 20 / 10 % of traffic), 40,000 visitors (a third identified),
 * 100,000 conversations over 90 days, 400,000 messages (full-text indexed as the pipeline's are),
 * 200,000 runs, open questions, and the bench operator's read markers on half of the conversations.
 * Ids are md5-derived (`uid`) so every statement can name the rows of the previous one without a join.
 */
export async function seedConsoleList(databaseUrl: string, operatorId: string): Promise<ConsoleSeed> {
  const started = performance.now();
  const s = SHAPE;
  // md5-derived ids with the version (4) and variant (8) digits set: valid RFC 9562 UUIDs, as zod checks them
  const uid = (key: string) => `overlay(overlay(md5(${key}) placing '4' from 13) placing '8' from 17)::uuid`;
  // one instant for every statement, so each can recompute a conversation's time from its number
  const now = `'${new Date().toISOString()}'::timestamptz`;
  const t = (i: string) =>
    `(CASE WHEN ${i} % ${s.liveEvery} = 1 THEN ${now} - (${i} % 60) * interval '1 second'
           ELSE ${now} - (hashint4(${i})::float8 / 2147483648.0 + 1) / 2 * interval '${s.days} days' END)`;
  const site = (i: string) => `${uid(`'bench-site-' || (CASE WHEN ${i} % 10 < 7 THEN 1 WHEN ${i} % 10 < 9 THEN 2 ELSE 3 END)`)}`;
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  // a cheap integer mix picks each word (hashtext over a concatenation per word: 29 s for the messages, this: 18 s)
  const word = (mix: string) => `(${words})[1 + (${mix}) % ${WORDS.length}]`;
  const statements = [
    `INSERT INTO "Site" (id, key, name) SELECT ${uid(`'bench-site-' || k`)}, 'bench-' || k, 'Bench site ' || k FROM generate_series(1, 3) AS k`,
    `INSERT INTO "Visitor" (id, "siteId", "externalId", name, "createdAt", "lastSeenAt")
     SELECT ${uid(`'v' || i`)}, ${site('i')},
            CASE WHEN i % 3 = 0 THEN 'user-' || i END, CASE WHEN i % 3 = 0 THEN 'Customer ' || i END,
            now() - interval '${s.days} days', now()
     FROM generate_series(0, ${s.visitors - 1}) AS i`,
    // updatedAt spread over the range; the live ones are active right now
    `INSERT INTO "Conversation" (id, "siteId", "visitorId", fence, title, "titleSource", "titleState", "lastAssistantAt", excerpt, "createdAt", "updatedAt")
     SELECT ${uid(`'c' || i`)}, ${site(`(i % ${s.visitors})`)}, ${uid(`'v' || (i % ${s.visitors})`)},
            CASE WHEN i % ${s.liveEvery} = 1 THEN 1 ELSE 2 END,
            initcap(${word('i * 7919 + 3')} || ' ' || ${word('i * 6007 + 11')}), 'generated', 'generated',
            CASE WHEN i % ${s.liveEvery} = 1 THEN t - interval '2 minutes' ELSE t END,
            CASE WHEN i % ${s.failedEvery} = 0 THEN 'Reply failed: The assistant could not be reached.' ELSE 'Sure, ' || ${word('i * 4001 + 17')} || ' is on its way.' END,
            t - interval '10 minutes', t
     FROM (SELECT i, ${t('i')} AS t FROM generate_series(0, ${s.conversations - 1}) AS i) c`,
    // two runs each (fence 1, 2); the second failed, asking, or answered; a live one has only the first
    `INSERT INTO "Run" (id, "conversationId", fence, status, "workerId", "leaseUntil", attempts, error, "promptTokens", "completionTokens", "costUsd", model, "startedAt", "firstTokenAt", "endedAt")
     SELECT ${uid(`'r' || i || '-' || f`)}, ${uid(`'c' || i`)}, f,
            (CASE WHEN f = 2 AND i % ${s.failedEvery} = 0 THEN 'failed' WHEN f = 2 AND i % ${s.askingEvery} = 2 THEN 'awaiting_input' ELSE 'completed' END)::"RunStatus",
            'bench', t, 1, CASE WHEN f = 2 AND i % ${s.failedEvery} = 0 THEN 'model_unavailable' END,
            900 + f * 150, 80, 0.0004, 'bench-model',
            t - (3 - f) * interval '3 minutes', t - (3 - f) * interval '3 minutes' + interval '400 ms',
            t - (3 - f) * interval '3 minutes' + interval '2 s'
     FROM (SELECT i, ${t('i')} AS t FROM generate_series(0, ${s.conversations - 1}) AS i) c, generate_series(1, 2) AS f
     WHERE NOT (f = 2 AND i % ${s.liveEvery} = 1)`,
    // visitor, assistant, visitor, assistant; the live one's last visitor message waits and has no reply yet
    `INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, state, "runId", error, "createdAt")
     SELECT ${uid(`'m' || i || '-' || j`)}, ${uid(`'c' || i`)}, ${uid(`'v' || (i % ${s.visitors})`)},
            (CASE WHEN j % 2 = 1 THEN 'user' ELSE 'assistant' END)::"MessageRole",
            CASE WHEN j % 2 = 1 THEN 'Hello, my ' || ${word('i * 7331 + j * 101 + 5')} || ' and ' || ${word('i * 5821 + j * 211 + 7')} || ' question about the ' || ${word('i * 3571 + j * 307 + 13')}
                 ELSE 'Thanks for asking about your ' || ${word('i * 2719 + j * 401 + 19')} || '. Here is what I found about ' || ${word('i * 1609 + j * 503 + 23')} || '.' END
              || CASE WHEN i % 997 = 0 THEN ' zanzibar' ELSE '' END,
            (CASE WHEN j % 2 = 0 THEN NULL WHEN j = 3 AND i % ${s.liveEvery} = 1 THEN 'pending'
                  WHEN j = 3 AND i % ${s.failedEvery} = 0 THEN 'failed' ELSE 'answered' END)::"MessageState",
            CASE WHEN j = 3 AND i % ${s.liveEvery} = 1 THEN NULL ELSE ${uid(`'r' || i || '-' || ((j + 1) / 2)`)} END,
            CASE WHEN j = 4 AND i % ${s.failedEvery} = 0 THEN 'model_unavailable' END,
            t - (4 - j) * interval '90 seconds'
     FROM (SELECT i, ${t('i')} AS t FROM generate_series(0, ${s.conversations - 1}) AS i) c, generate_series(1, ${s.messagesPerConversation}) AS j
     WHERE NOT (j = 4 AND i % ${s.liveEvery} = 1)`,
    `INSERT INTO "InputRequest" (id, "conversationId", "runId", "toolCallId", "messageId", question, status, "createdAt")
     SELECT ${uid(`'q' || i`)}, ${uid(`'c' || i`)}, ${uid(`'r' || i || '-2'`)}, 'call_' || i, ${uid(`'m' || i || '-4'`)},
            'Which order do you mean?', 'open', c."lastAssistantAt"
     FROM generate_series(0, ${s.conversations - 1}) AS i JOIN "Conversation" c ON c.id = ${uid(`'c' || i`)}
     WHERE i % ${s.askingEvery} = 2 AND i % ${s.failedEvery} <> 0 AND i % ${s.liveEvery} <> 1`,
    `INSERT INTO "OperatorRead" ("operatorId", "conversationId", "lastReadAt")
     SELECT '${operatorId}'::uuid, id, "lastAssistantAt" FROM "Conversation" WHERE "lastAssistantAt" IS NOT NULL AND abs(hashtext(id::text)) % 2 = 0`,
  ];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`SET maintenance_work_mem = '256MB'`);
    // The rows are consistent by construction: skip the foreign-key triggers' lookup per row.
    await client.query(`SET session_replication_role = replica`);
    // Loading first and indexing after is the usual bulk-load order. Measured at a load average
    // of ~13: the message insert took 62 s with its indexes in place (GIN maintenance row by row),
    // 29 s without them, plus ~11 s to build every index afterwards.
    const indexes = await dropSecondaryIndexes(client, ['Message', 'Run', 'Conversation']);
    for (const sql of statements) await client.query(sql);
    for (const sql of indexes) await client.query(sql);
    await client.query(`SET session_replication_role = DEFAULT`);
    await client.query('ANALYZE');
    const { rows } = await client.query<{ messages: number; runs: number; inputRequests: number; operatorReads: number }>(`
      SELECT (SELECT count(*) FROM "Message")::int AS messages, (SELECT count(*) FROM "Run")::int AS runs,
             (SELECT count(*) FROM "InputRequest")::int AS "inputRequests", (SELECT count(*) FROM "OperatorRead")::int AS "operatorReads"`);
    return {
      ...summaryOf(rows[0]!),
      seedMs: Math.round(performance.now() - started),
    };
  } finally {
    await client.end();
  }
}

/** Drops every index of `tables` that backs no constraint (primary keys stay) and returns their definitions. */
async function dropSecondaryIndexes(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i
     WHERE i.indrelid = ANY ($1::regclass[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [tables.map((t) => `"${t}"`)],
  );
  for (const row of rows) await client.query(`DROP INDEX ${row.name}`);
  return rows.map((row) => row.definition);
}

function summaryOf(counts: { messages: number; runs: number; inputRequests: number; operatorReads: number }): Omit<ConsoleSeed, 'seedMs'> {
  return {
    sites: ['bench-1', 'bench-2', 'bench-3'],
    conversations: SHAPE.conversations,
    visitors: SHAPE.visitors,
    ...counts,
    searchWords: { common: 'parcel', rare: 'zanzibar' },
  };
}
