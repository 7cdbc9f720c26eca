import type { EventBus } from '../events/event-bus.ts';

/**
 * Tells every process that these operators' access changed (after the change is committed):
 * their open console streams check their session within a second and end when it was revoked.
 * A publish that fails (Redis away) is logged, not an error for the change itself: each stream
 * also checks its session on its own every 30 s.
 * @example await accessChanged(services.bus, [operatorId])
 */
export async function accessChanged(
  bus: Pick<EventBus, 'operatorsChanged' | 'notifyFailed'>,
  operatorIds: readonly string[],
): Promise<void> {
  await bus.operatorsChanged(operatorIds).catch((err: unknown) => bus.notifyFailed(err));
}
