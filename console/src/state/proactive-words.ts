/*
 * The words the console uses for unsolicited messages: their kinds and the reasons an intent
 * or a check-in was refused (`ProactiveRefusal.reason`, see prisma/schema.prisma).
 */
const REASONS: Record<string, string> = {
  unknown_intent: 'No rule with that name',
  rule_disabled: 'Rule turned off',
  bad_data: 'Data refused (too large or malformed)',
  daily_budget: 'Daily budget used up',
  pending_batch: 'Visitor was writing (a batch was pending)',
  live_run: 'A reply was streaming',
  twice_in_a_row: 'Would be two in a row',
  unread_unsolicited: 'Last one closed unread',
  held: 'An operator held the conversation',
  bad_name: 'Malformed intent name',
  conversation_limit: 'Visitor at their conversation limit',
  visitor_wrote: 'Visitor wrote first',
};

const KINDS: Record<string, string> = {
  intent: 'Intents',
  check_in: 'Check-ins',
  server: 'From your server',
};

/**
 * Why unsolicited messages were refused, in words; an unknown reason (a newer server) still
 * reads, underscores as spaces.
 * @example reasonText('daily_budget') // 'Daily budget used up'
 */
export function reasonText(reason: string): string {
  return REASONS[reason] ?? reason.replace(/_+/g, ' ');
}

/** @example kindText('check_in') // 'Check-ins' */
export function kindText(kind: string): string {
  return KINDS[kind] ?? kind.replace(/_+/g, ' ');
}
