const FOCUSABLE =
  'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/**
 * The elements Tab can reach inside `root`, in the order it reaches them: through open shadow
 * roots, with slotted elements where their slot is; hidden ones are left out.
 * @example focusables(panel.renderRoot).at(-1) // the composer's Send button
 */
export function focusables(root: ParentNode): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (el: Element) => {
    if (el instanceof HTMLElement && el.matches(FOCUSABLE) && el.checkVisibility()) found.push(el);
    if (el instanceof HTMLSlotElement) el.assignedElements({ flatten: true }).forEach(visit);
    else Array.from((el.shadowRoot ?? el).children).forEach(visit);
  };
  Array.from(root.children).forEach(visit);
  return found;
}

/** The element that has focus, through the shadow roots it sits in. */
export function deepActiveElement(doc: Document = document): Element | null {
  let el = doc.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/**
 * Keeps Tab inside `root`: from its last focusable element Tab goes to its first, and Shift+Tab
 * from the first to the last. Call it from a keydown listener; it acts on Tab only.
 * @example if (fullScreen) wrapTab(e, this.renderRoot);
 */
export function wrapTab(e: KeyboardEvent, root: ParentNode): void {
  if (e.key !== 'Tab') return;
  const items = focusables(root);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const active = deepActiveElement();
  const to = e.shiftKey ? (active === first ? last : null) : active === last ? first : null;
  if (!to) return;
  e.preventDefault();
  to.focus();
}
