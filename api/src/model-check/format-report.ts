import { FALLBACK_OF } from '../chat/model/compat-flags.ts';
import type { CheckReport } from './model-check.ts';

const MARK = { works: 'ok  ', 'falls back': 'warn', fails: 'FAIL' } as const;

/**
 * The report as `npm run model:check` prints it: one line per check, the server's words under
 * a refusal, then what to change.
 * @example formatReport(report, { baseUrl, model }) // "ok   reply with tools\n…"
 */
export function formatReport(report: CheckReport, target: { baseUrl: string; model: string; titleModel: string }): string {
  const out = [
    `model server ${target.baseUrl}, model ${target.model}${target.titleModel !== target.model ? `, title model ${target.titleModel}` : ''}`,
    '',
  ];
  for (const line of report.lines) {
    out.push(`${MARK[line.status]} ${line.check}${line.detail ? ` — ${line.detail}` : ''}`);
    if (line.said) out.push(`       the server said: ${line.said}`);
  }
  out.push('');
  if (report.flags.length > 0) {
    out.push(`Set OPENAI_COMPAT=${report.flags.join(',')} so no request is spent finding this out:`);
    for (const f of report.flags) out.push(`  ${f}: ${FALLBACK_OF[f].fallback}`);
  }
  const fails = report.lines.filter((l) => l.status === 'fails');
  if (fails.length > 0)
    out.push(
      "Fix what failed before visitors use it (the server's words above usually name the fix; see docs/operators/model-servers.md).",
    );
  if (report.flags.length === 0 && fails.length === 0) out.push('Everything works as Heed asks it; nothing to set.');
  return out.join('\n');
}
