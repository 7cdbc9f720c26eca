import { cancelAll, type ComposeDeps, type Composed } from './composed.ts';
import { composeInvitation } from './invitation.ts';
import { composeOperatorAlert } from './operator-alert.ts';
import type { ClaimedEmail } from './outbox-claims.ts';
import { composeVisitorReply } from './visitor-reply.ts';

/**
 * The claimed rows as the emails they become: an operator's alerts together (one email per
 * operator per pass), every other row alone.
 */
export function groupClaims(rows: readonly ClaimedEmail[]): ClaimedEmail[][] {
  const byOperator = new Map<string, ClaimedEmail[]>();
  const alone: ClaimedEmail[][] = [];
  for (const row of rows) {
    if (row.kind !== 'operator_alert' || !row.operatorId) {
      alone.push([row]);
      continue;
    }
    const group = byOperator.get(row.operatorId) ?? [];
    group.push(row);
    byOperator.set(row.operatorId, group);
  }
  return [...alone, ...byOperator.values()];
}

/** Renders one group at send time, from the rows it names (see each kind's composer). A kind this version does not know is cancelled. */
export function composeEmail(deps: ComposeDeps, group: readonly ClaimedEmail[]): Promise<Composed> {
  const first = group[0];
  switch (first?.kind) {
    case 'invitation':
      return composeInvitation(deps, first);
    case 'operator_alert':
      return composeOperatorAlert(deps, group);
    case 'visitor_reply':
      return composeVisitorReply(deps, first);
    default:
      return Promise.resolve(cancelAll(group));
  }
}
