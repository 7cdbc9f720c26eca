/** The most conversations remembered per operator: the newest marks stay. */
const MAX_MARKS = 500;

/**
 * Per conversation, the newest visitor message (its time, ms) this operator had on screen in
 * this browser: what "read" means for the tab count and the alerts, since the server keeps
 * no operator's read of visitor messages. Kept in localStorage per operator, so a reload
 * does not count again what they already read; storage refused (private mode, quota) leaves
 * the marks in memory only.
 *
 * @example const seen = new SeenMarks(me.id); seen.see(id, Date.parse(item.lastVisitorAt)); seen.get(id)
 */
export class SeenMarks {
  private readonly marks = new Map<string, number>();
  private readonly key: string;

  constructor(operatorId: string) {
    this.key = `heed-console-seen:${operatorId}`;
    for (const [id, at] of readStored(this.key)) this.marks.set(id, at);
  }

  get(conversationId: string): number | undefined {
    return this.marks.get(conversationId);
  }

  /** Records that the visitor's message of time `at` was on screen; returns whether the mark moved. */
  see(conversationId: string, at: number): boolean {
    if (!Number.isFinite(at) || (this.marks.get(conversationId) ?? Number.NEGATIVE_INFINITY) >= at) return false;
    this.marks.delete(conversationId); // re-inserted last: the Map's order is the marks' age
    this.marks.set(conversationId, at);
    while (this.marks.size > MAX_MARKS) this.marks.delete(this.marks.keys().next().value!);
    try {
      localStorage.setItem(this.key, JSON.stringify([...this.marks]));
    } catch {
      // storage refused: the marks hold for this page's life
    }
    return true;
  }
}

/** The stored marks, or none when absent or unreadable. */
function readStored(key: string): [string, number][] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && Number.isFinite(e[1]),
    );
  } catch {
    return [];
  }
}
