import { property, state } from 'lit/decorators.js';
import { ConsoleElement } from './console-element.ts';
import type { ErrorText } from '../state/error-text.ts';

/**
 * The base of a view of one site's list (its knowledge sources, files, snippets, unanswered
 * questions): it loads the list whenever the site changes, and runs an owner's change with the
 * list disabled meanwhile, announcing it when done and loading the list again. A failure shows
 * in `error` and comes back to the caller, for errors beside its fields.
 */
export abstract class SiteListElement extends ConsoleElement {
  @property() siteId = '';
  @state() protected busy = false;
  @state() protected error: string | null = null;

  /** Reads the list; a failure goes to `error` through `failed()`. */
  protected abstract load(): Promise<void>;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('siteId') && this.siteId) void this.load();
  }

  /** One change, announced with `done`, then the list again; its failure as text (null when it worked). */
  protected async change(run: () => Promise<unknown>, done: string): Promise<ErrorText | null> {
    this.busy = true;
    this.error = null;
    try {
      await run();
      this.announce(done);
      await this.load();
      return null;
    } catch (err) {
      const failure = this.failed(err);
      this.error = failure.message;
      return failure;
    } finally {
      this.busy = false;
    }
  }
}
