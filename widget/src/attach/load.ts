let loading: Promise<void> | null = null;

/**
 * Imports the attachments' code (`attach.ts`) the first time a visitor attaches a file or a
 * thread shows one; later calls share the first import. Its own chunk, so the panel's does not
 * grow by it. The one module of this folder that the panel's chunk holds. Never rejects: after a
 * failed import (a network error) the elements stay undefined, and the next call tries again.
 *
 * @example await loadAttach(); composer.renderRoot.querySelector('heed-attachment-tray')?.add(files);
 */
export function loadAttach(): Promise<void> {
  loading ??= import('./attach.ts').then((m) => m.ready).catch(() => void (loading = null));
  return loading;
}
