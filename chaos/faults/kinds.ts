/** Every fault the controller can inject (see controller.ts for what each does). */
export const FAULT_KINDS = ['worker-kill', 'worker-sigterm', 'worker-sigstop', 'api-kill', 'redis-restart', 'pg-terminate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
