const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Removes inline reasoning (`<think>…</think>`, as DeepSeek-R1-style models write it on Ollama
 * and llama.cpp) from streamed text, also when a tag is split across fragments: a suffix that
 * could begin a tag is held back until the next fragment says what it is. The whitespace a
 * model writes after its reasoning is dropped too, so the reply starts at its first word.
 * @example const f = new ThinkFilter(); f.push('<thi') + f.push('nk>hm</think>Hi') + f.end() === 'Hi'
 */
export class ThinkFilter {
  #inside = false;
  #held = '';
  #trimStart = false;

  /** The visible part of `fragment` (possibly empty: held back or inside a reasoning block). */
  push(fragment: string): string {
    let rest = this.#held + fragment;
    this.#held = '';
    let out = '';
    while (rest !== '') {
      const tag = this.#inside ? CLOSE : OPEN;
      const at = rest.indexOf(tag);
      if (at >= 0) {
        if (!this.#inside) out += this.#visible(rest.slice(0, at));
        rest = rest.slice(at + tag.length);
        this.#inside = !this.#inside;
        if (!this.#inside) this.#trimStart = true;
        continue;
      }
      const keep = partialTagLength(rest, tag);
      if (!this.#inside) out += this.#visible(rest.slice(0, rest.length - keep));
      this.#held = rest.slice(rest.length - keep);
      rest = '';
    }
    return out;
  }

  /** What was held back at the end of the stream (text that only looked like a tag's start). */
  end(): string {
    const rest = this.#inside ? '' : this.#visible(this.#held);
    this.#held = '';
    return rest;
  }

  #visible(text: string): string {
    if (!this.#trimStart) return text;
    const trimmed = text.trimStart();
    if (trimmed !== '') this.#trimStart = false;
    return trimmed;
  }
}

/** How many characters at the end of `text` could be the start of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}
