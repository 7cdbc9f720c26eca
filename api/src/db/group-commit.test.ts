import { expect, test } from 'vitest';
import { GroupCommit, type ItemOutcome } from './group-commit.ts';

interface Item {
  key: string;
  n: number;
  solo?: boolean;
  poison?: boolean;
  /** its row is locked: a group of several turns it away, a group of one waits for it */
  locked?: boolean;
}

/** A store whose groups finish when the test says so, recording each group it was given. */
function recordingStore(opts: { concurrency?: number; maxGroup?: number; perKey?: number } = {}) {
  const groups: Item[][] = [];
  const release: (() => void)[] = [];
  const queue = new GroupCommit<Item, string>(
    async (items) => {
      groups.push(items);
      await new Promise<void>((resolve) => release.push(resolve));
      if (items.length > 1 && items.some((i) => i.poison)) throw new Error('deadlock detected');
      return items.map(
        (i): ItemOutcome<string> =>
          i.poison
            ? { kind: 'failed', error: new Error(`refused ${i.n}`) }
            : i.locked && items.length > 1
              ? { kind: 'busy' }
              : { kind: 'done', value: `${i.key}#${i.n}` },
      );
    },
    {
      concurrency: opts.concurrency ?? 1,
      maxGroup: opts.maxGroup ?? 10,
      perKey: opts.perKey,
      keyOf: (i) => i.key,
      solo: (i) => i.solo === true,
    },
  );
  // items submitted and not yet answered: releaseAll waits for that count, not for a number of timer ticks
  let unanswered = 0;
  const submit = (item: Item): Promise<string> => {
    unanswered++;
    const answer = queue.submit(item);
    answer.then(
      () => unanswered--,
      () => unanswered--,
    );
    return answer;
  };
  const releaseAll = async () => {
    // let each started group finish, and the ones it starts in turn, until every item has its answer
    while (unanswered > 0) {
      while (release.length > 0) release.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { queue: { submit }, groups, releaseAll };
}

test('an item on an idle queue runs at once, alone; items that come meanwhile run together in the next group', async () => {
  const { queue, groups, releaseAll } = recordingStore();
  const first = queue.submit({ key: 'a', n: 1 });
  const rest = [queue.submit({ key: 'b', n: 2 }), queue.submit({ key: 'c', n: 3 })];
  expect(groups).toEqual([[{ key: 'a', n: 1 }]]);
  await releaseAll();
  expect(await first).toBe('a#1');
  expect(await Promise.all(rest)).toEqual(['b#2', 'c#3']);
  expect(groups.map((g) => g.map((i) => i.n))).toEqual([[1], [2, 3]]);
});

test('items of one key never share a group nor run at once, and keep their order', async () => {
  const { queue, groups, releaseAll } = recordingStore({ concurrency: 3 });
  const results = [1, 2, 3, 4].map((n) => queue.submit({ key: n === 3 ? 'y' : 'x', n }));
  await releaseAll();
  expect(await Promise.all(results)).toEqual(['x#1', 'x#2', 'y#3', 'x#4']);
  const order = groups
    .flat()
    .filter((i) => i.key === 'x')
    .map((i) => i.n);
  expect(order).toEqual([1, 2, 4]);
  for (const group of groups) expect(new Set(group.map((i) => i.key)).size).toBe(group.length);
});

test('with perKey, a group takes up to that many items of one key, in submission order; the rest of the key waits for the next group', async () => {
  const { queue, groups, releaseAll } = recordingStore({ perKey: 2 });
  const first = queue.submit({ key: 'z', n: 0 });
  const results = [1, 2, 3, 4, 5].map((n) => queue.submit({ key: n === 4 ? 'y' : 'x', n }));
  await releaseAll();
  expect(await first).toBe('z#0');
  expect(await Promise.all(results)).toEqual(['x#1', 'x#2', 'x#3', 'y#4', 'x#5']);
  // x's third item waited for the group holding its first two; y's went with them
  expect(groups.map((g) => g.map((i) => i.n))).toEqual([[0], [1, 2, 4], [3, 5]]);
});

test('with perKey, a solo item of a key still runs alone, and the key’s later items after it', async () => {
  const { queue, groups, releaseAll } = recordingStore({ perKey: 3 });
  const first = queue.submit({ key: 'z', n: 0 });
  const all = [
    queue.submit({ key: 'x', n: 1 }),
    queue.submit({ key: 'x', n: 2, solo: true }),
    queue.submit({ key: 'x', n: 3 }),
    queue.submit({ key: 'y', n: 4 }),
  ];
  await releaseAll();
  await Promise.all([first, ...all]);
  expect(groups.map((g) => g.map((i) => i.n))).toEqual([[0], [1, 4], [2], [3]]);
});

test('a solo item runs in a group of its own', async () => {
  const { queue, groups, releaseAll } = recordingStore();
  const all = [
    queue.submit({ key: 'a', n: 1 }),
    queue.submit({ key: 'b', n: 2 }),
    queue.submit({ key: 'c', n: 3, solo: true }),
    queue.submit({ key: 'd', n: 4 }),
  ];
  await releaseAll();
  await Promise.all(all);
  expect(groups.map((g) => g.map((i) => i.n))).toEqual([[1], [2, 4], [3]]);
});

test('a group that throws runs each of its items again alone: only the bad one fails', async () => {
  const { queue, groups, releaseAll } = recordingStore();
  const first = queue.submit({ key: 'a', n: 1 });
  const b = queue.submit({ key: 'b', n: 2 });
  const bad = queue.submit({ key: 'c', n: 3, poison: true }).then(String, (err: Error) => err.message);
  const d = queue.submit({ key: 'd', n: 4 });
  await releaseAll();
  expect(await first).toBe('a#1');
  expect(await b).toBe('b#2');
  expect(await bad).toBe('refused 3');
  expect(await d).toBe('d#4');
  expect(groups.map((g) => g.map((i) => i.n))).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
});

test('a group takes at most maxGroup items', async () => {
  const { queue, groups, releaseAll } = recordingStore({ maxGroup: 2 });
  const all = ['a', 'b', 'c', 'd', 'e'].map((key, n) => queue.submit({ key, n }));
  await releaseAll();
  await Promise.all(all);
  expect(groups.map((g) => g.length)).toEqual([1, 2, 2]);
});

test('an item turned away busy by a group runs again alone, before later items of its key', async () => {
  const { queue, groups, releaseAll } = recordingStore();
  const all = [queue.submit({ key: 'a', n: 1 }), queue.submit({ key: 'b', n: 2, locked: true }), queue.submit({ key: 'c', n: 3 })];
  const later = queue.submit({ key: 'b', n: 4 });
  await releaseAll();
  expect(await Promise.all([...all, later])).toEqual(['a#1', 'b#2', 'c#3', 'b#4']);
  expect(groups.map((g) => g.map((i) => i.n))).toEqual([[1], [2, 3], [2], [4]]);
});
