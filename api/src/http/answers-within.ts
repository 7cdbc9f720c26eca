/**
 * Whether `check` resolves true within `ms`: a check still pending then (a store that is frozen,
 * blackholed or waiting on a lock, whose driver waits without a deadline) counts as false, and is
 * left to settle on its own. A rejected check is false too.
 *
 * @example const up = await answersWithin(redis.ping().then((r) => r === 'PONG'), 500);
 */
export async function answersWithin(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([check.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
