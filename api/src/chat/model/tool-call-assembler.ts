import type { RawToolCall } from './tools.ts';

/** One streamed tool-call fragment as servers send it: any field may be missing. */
export interface ToolCallPart {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/**
 * Reassembles streamed tool calls the way each server dialect sends them: by `index` when
 * there is one (OpenAI, vLLM, LiteLLM from 1), by `id` when several calls share an index
 * (Ollama sends every call at `index: 0` with its own id), else by position (servers that
 * omit `index`: a fragment without a new name continues the last call). Calls keep the
 * order they were opened in.
 * @example const calls = new ToolCallAssembler(); calls.add(part); calls.result();
 */
export class ToolCallAssembler {
  readonly #calls: RawToolCall[] = [];
  readonly #byId = new Map<string, RawToolCall>();
  readonly #byIndex = new Map<number, RawToolCall>();

  /** Adds one fragment to the call it belongs to (opening a new one when it starts one). */
  add(part: ToolCallPart): void {
    const call = this.#target(part);
    const index = typeof part.index === 'number' ? part.index : undefined;
    if (part.id) {
      call.id = part.id;
      this.#byId.set(part.id, call);
    }
    if (index !== undefined) this.#byIndex.set(index, call);
    if (part.function?.name && call.name === '') call.name = part.function.name;
    if (part.function?.arguments) call.arguments += part.function.arguments;
  }

  /** The calls in the order they were opened; a call that never got an id is given one. */
  result(): RawToolCall[] {
    return this.#calls.map((c, i) => ({ ...c, id: c.id || `call_${i}` }));
  }

  #target(part: ToolCallPart): RawToolCall {
    const index = typeof part.index === 'number' ? part.index : undefined;
    const atIndex = index === undefined ? undefined : this.#byIndex.get(index);
    if (part.id) {
      const known = this.#byId.get(part.id);
      if (known) return known;
      // the id may come after the first fragment of its call; a different id at a taken index is a new call
      if (atIndex && atIndex.id === '') return atIndex;
      return this.#open();
    }
    if (index !== undefined) return atIndex ?? this.#open();
    const last = this.#calls.at(-1);
    const startsAnother = Boolean(part.function?.name) && last !== undefined && last.name !== '';
    return last && !startsAnother ? last : this.#open();
  }

  #open(): RawToolCall {
    const call: RawToolCall = { id: '', name: '', arguments: '' };
    this.#calls.push(call);
    return call;
  }
}
