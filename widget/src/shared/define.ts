/**
 * Defines a Heed element unless one of that name is defined already (a second copy of the
 * widget on the page, or a module imported twice). One helper rather than the check written
 * out at every element: the bundle then carries each element's name once, not twice.
 *
 * @example define('heed-panel', HeedPanel);
 */
export function define(name: string, element: CustomElementConstructor): void {
  customElements.get(name) || customElements.define(name, element);
}
