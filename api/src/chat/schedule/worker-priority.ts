import { getPriority, setPriority } from 'node:os';

/**
 * Lowers this process's CPU priority to `nice` (`WORKER_NICE`) when it runs at a higher one, as
 * `npm run worker` does at start. A worker's load comes in bursts (the runs whose batches fell due
 * together claim, build their context, stream and store at once), and on a machine it shares with
 * an API process each burst took the API's CPU: sends waited behind it. A send is a visitor waiting
 * on an answer, and so is every reply token, which reaches the visitor through an API's event
 * stream; the worker's own pace is set by the model. Measured with the ingest bench (64 visitors,
 * 1,000 sends/s, one API and one worker process on 2 cores): send p99 190–791 ms with the worker
 * at nice 0 (5 runs); at nice 10, 140–149 ms with the local model server at nice 0 and 82–125 ms
 * with it lowered too (6 runs; production's model runs elsewhere). Never raised: a process started
 * lower stays lower.
 *
 * On Linux a nice value is a thread's: this sets the main thread's, where the worker's JavaScript
 * runs, and threads it starts later (libuv's pool) inherit it. Returns the priority it runs at.
 */
export function lowerWorkerPriority(nice: number): number {
  const current = getPriority();
  if (current < nice) setPriority(nice);
  return getPriority();
}
