/**
 * `command` started at CPU priority `nice`: coreutils' `nice` execs it in the same process, so the
 * child's pid is the command's. Unchanged without a priority.
 * @example const [command, ...args] = niced([process.execPath, 'main.ts'], 10); spawn(command!, args)
 */
export function niced(command: readonly string[], nice?: number): string[] {
  return nice === undefined ? [...command] : ['nice', '-n', String(nice), ...command];
}
