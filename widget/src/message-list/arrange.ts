import type { StreamingReply, ThreadMessage } from '../state/types.ts';

export type ThreadItem =
  | { kind: 'message'; message: ThreadMessage }
  | { kind: 'streaming'; reply: StreamingReply }
  /** a reply is coming and none of it streams yet: the typing row */
  | { kind: 'coming' };

/**
 * The order a thread reads in: storage order, except that a reply follows the messages it
 * answers. A visitor who writes while a reply streams sees that reply land above their
 * new message (which the next reply answers), not below it.
 */
export function arrange(messages: readonly ThreadMessage[], reply?: StreamingReply): ThreadItem[] {
  const items: ThreadItem[] = [];
  const afterBatch = (runId: string, ids?: readonly string[]) => {
    let at = -1;
    items.forEach((item, i) => {
      if (item.kind === 'message' && item.message.role === 'user' && (item.message.runId === runId || ids?.includes(item.message.id)))
        at = i;
    });
    return at;
  };
  for (const message of messages) {
    const at = message.role === 'assistant' && message.runId ? afterBatch(message.runId) : -1;
    if (at === -1) items.push({ kind: 'message', message });
    else items.splice(at + 1, 0, { kind: 'message', message });
  }
  if (reply) {
    const at = afterBatch(reply.runId, reply.after);
    if (at === -1) items.push({ kind: 'streaming', reply });
    else items.splice(at + 1, 0, { kind: 'streaming', reply });
  }
  return items;
}
