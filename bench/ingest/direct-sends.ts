import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../api/src/config.ts';
import { sendMessage } from '../../api/src/conversations/send-message.ts';
import { createLogger } from '../../api/src/logging/logger.ts';
import { createServices } from '../../api/src/services.ts';
import { preciseNow, rounded, summarize, type Summary } from '../stats.ts';

export interface DirectSendsResult {
  sendsPerSecond: number;
  /** sends that threw (e.g. Prisma's P2028: no pooled connection within its 2 s maxWait) */
  failed: number;
  latencyMs: Summary;
  /** CPU of this (the bench's) process in the window, % of one core: the ORM, the send code, pg and Redis clients */
  cpuPercent: number;
  cpuMsPerSend: number;
}

/**
 * The middle layer between the anchor and the HTTP figure: `sendMessage` itself (the send's
 * transaction through the ORM, its events, its wake-up) called by `concurrency` loops in this
 * process with no HTTP, tRPC, token check or rate limit in front, and no other Heed process
 * running. What is left between this and the HTTP figure is the request path.
 */
export async function measureDirectSends(
  env: Record<string, string | undefined>,
  targets: { conversationId: string; visitorId: string }[],
  opts: { concurrency: number; durationMs: number },
): Promise<DirectSendsResult> {
  const services = await createServices(loadConfig(env), { logger: createLogger('silent') });
  try {
    const latencies: number[] = [];
    let failed = 0;
    const cpuBefore = process.cpuUsage();
    const started = preciseNow();
    const end = started + opts.durationMs;
    await Promise.all(
      Array.from({ length: opts.concurrency }, async (_, i) => {
        const t = targets[i % targets.length]!;
        for (let n = 0; preciseNow() < end; n++) {
          const t0 = preciseNow();
          try {
            await sendMessage(services, {
              visitorId: t.visitorId,
              conversationId: t.conversationId,
              clientMessageId: randomUUID(),
              content: `direct ${n}`,
            });
            latencies.push(preciseNow() - t0);
          } catch {
            failed++;
          }
        }
      }),
    );
    const ms = preciseNow() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return {
      sendsPerSecond: Math.round((latencies.length / ms) * 10000) / 10,
      failed,
      latencyMs: rounded(summarize(latencies)),
      cpuPercent: Math.round((cpuMs / ms) * 1000) / 10,
      cpuMsPerSend: Math.round((cpuMs / latencies.length) * 100) / 100,
    };
  } finally {
    await services.close();
  }
}
