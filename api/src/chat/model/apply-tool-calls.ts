import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/types.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { transactWithEvents } from '../../events/append-events.ts';
import { loadConversationView } from '../../conversations/queries.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { requestHandoff } from '../../handoff/request-handoff.ts';
import { assertFence } from '../schedule/fence.ts';
import { toolResult, type ParsedToolCall, type UserInputArgs } from './tools.ts';

/** Most open todos a conversation holds; `todo_add` beyond it is refused (the widget and context show them all). */
export const OPEN_TODOS_MAX = 20;

export interface ToolOutcome {
  /** what goes back to the model, one result per call, in call order (the question has none) */
  results: { callId: string; content: string }[];
  /** the first valid `request_user_input`: the run ends waiting for its answer */
  question: (UserInputArgs & { callId: string }) | null;
}

/**
 * Carries out one model round's tool calls. Todo changes and a request for a person
 * (`handoff_to_human`: the conversation waits for a person, with its notice) are written in
 * one fenced transaction (a run that lost its lease changes nothing) with a `conversation.updated`
 * event; refused calls (invalid arguments, unknown tools, a second question) get an error
 * result the model reads in the next round. The question itself is stored by `completeRun`.
 */
export async function applyToolCalls(db: Db, bus: EventBus, batch: ClaimedBatch, calls: readonly ParsedToolCall[]): Promise<ToolOutcome> {
  const results = new Map<string, Record<string, unknown>>();
  const question = calls.find((c) => c.name === 'request_user_input') ?? null;
  for (const call of calls) {
    if (call.name === 'invalid') results.set(call.callId, { error: call.error });
    if (call.name === 'request_user_input' && call !== question) results.set(call.callId, { error: 'ask one question at a time' });
  }
  const effects = calls.filter((c) => c.name === 'todo_add' || c.name === 'todo_complete' || c.name === 'handoff_to_human');
  if (effects.length > 0) {
    await transactWithEvents(db, bus, async (tx, emit) => {
      await assertFence(tx, batch);
      let changed = false;
      for (const call of effects) {
        const done =
          call.name === 'todo_add'
            ? await addTodo(tx, batch, call.args.text)
            : call.name === 'todo_complete'
              ? await completeTodo(tx, batch, call.args.id)
              : await requestHandoff(tx, batch, emit);
        changed ||= done.changed;
        results.set(call.callId, done.result);
      }
      if (!changed) return;
      const conversation = await loadConversationView(tx, batch.conversationId);
      emit(batch.visitorId, { type: 'conversation.updated', conversationId: batch.conversationId, conversation });
    });
  }
  return {
    results: calls.flatMap((c) => (results.has(c.callId) ? [{ callId: c.callId, content: toolResult(results.get(c.callId)!) }] : [])),
    question: question?.name === 'request_user_input' ? { callId: question.callId, ...question.args } : null,
  };
}

type Applied = { changed: boolean; result: Record<string, unknown> };

async function addTodo(tx: Tx, batch: ClaimedBatch, text: string): Promise<Applied> {
  const open = await tx.todo.findMany({
    where: { conversationId: batch.conversationId, status: 'open' },
    select: { id: true, text: true },
  });
  const same = open.find((t) => t.text === text);
  if (same) return { changed: false, result: { ok: true, id: same.id, note: 'this todo was already open' } };
  if (open.length >= OPEN_TODOS_MAX)
    return { changed: false, result: { error: `there are already ${OPEN_TODOS_MAX} open todos; complete one first` } };
  const todo = await tx.todo.create({
    data: { conversationId: batch.conversationId, text, addedRunId: batch.runId },
    select: { id: true },
  });
  return { changed: true, result: { ok: true, id: todo.id } };
}

async function completeTodo(tx: Tx, batch: ClaimedBatch, id: string): Promise<Applied> {
  const { count } = await tx.todo.updateMany({
    where: { id, conversationId: batch.conversationId, status: 'open' },
    data: { status: 'done', completedRunId: batch.runId, completedAt: new Date() },
  });
  return count === 1
    ? { changed: true, result: { ok: true, id } }
    : { changed: false, result: { error: 'no open todo with this id in this conversation' } };
}
