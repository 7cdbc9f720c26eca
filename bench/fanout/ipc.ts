import type { ChildProcess } from 'node:child_process';

/**
 * Sends `message` to a bench child over IPC and resolves with its first answer of type
 * `answer` (an `error` answer rejects; so does the child exiting first).
 */
export function ask<T>(child: ChildProcess, message: object | null, answer: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type?: string; message?: string }) => {
      if (m?.type === 'error') return done(() => reject(new Error(m.message)));
      if (m?.type === answer) done(() => resolve(m as T));
    };
    const onExit = () => done(() => reject(new Error(`child exited before answering ${answer}`)));
    const done = (settle: () => void) => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      settle();
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (message) child.send(message);
  });
}
