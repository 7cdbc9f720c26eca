/**
 * The inbox's keys, as pure rules so every pane reads them the same way.
 * Single letters never act while the operator types in a field.
 */

/** Whether a key press is typing: in a text field, a select, or with a modifier held. */
export function isTyping(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  const target = e.composedPath()[0];
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The rows a key moves: +1 (j, ArrowDown), -1 (k, ArrowUp), or 0 for any other key.
 * @example nextRowKey(new KeyboardEvent('keydown', { key: 'j' })) // 1
 */
export function nextRowKey(e: KeyboardEvent): -1 | 0 | 1 {
  if (e.key === 'j' || e.key === 'ArrowDown') return 1;
  if (e.key === 'k' || e.key === 'ArrowUp') return -1;
  return 0;
}
