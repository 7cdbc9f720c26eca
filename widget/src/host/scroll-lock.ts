/**
 * Stops the host page from scrolling behind the full-screen chat on a phone: the page's root
 * and body stop scrolling until the returned function puts back exactly the inline `overflow`
 * they had (empty when they had none), so the page's own styles are untouched afterwards.
 * @example const release = lockPageScroll(); … release();
 */
export function lockPageScroll(doc: Document = document): () => void {
  const targets = [doc.documentElement, doc.body].filter((el): el is HTMLElement => el !== null);
  const before = targets.map((el) => el.style.getPropertyValue('overflow'));
  const priority = targets.map((el) => el.style.getPropertyPriority('overflow'));
  for (const el of targets) el.style.setProperty('overflow', 'hidden', 'important');
  return () =>
    targets.forEach((el, i) =>
      before[i] ? el.style.setProperty('overflow', before[i]!, priority[i]) : el.style.removeProperty('overflow'),
    );
}
