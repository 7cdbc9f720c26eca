/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './inbox.ts';
import type { HeedConsoleInbox } from './inbox.component.ts';
import { erasureResult, fakeConsoleApi, item, owner, transcript } from '../test-support/fake-console-api.ts';
import type { ConsoleApi } from '../state/console-api.ts';

const open = item({ title: 'Boots' });
const other = item({ title: 'Returns' });

/** The inbox with `open` open beside the list; what it announces is recorded. */
async function inbox(over: Partial<ConsoleApi> = {}) {
  const fake = fakeConsoleApi({
    conversations: async (input) => ({ items: input.filter === 'waiting' ? [] : [open, other], nextCursor: null }),
    transcript: async () => transcript({ id: open.id, title: 'Boots' }),
    ...over,
  });
  const announced: string[] = [];
  const el = await fixture<HeedConsoleInbox>(
    html`<heed-console-inbox .api=${fake.api} .me=${owner} .conversationId=${open.id}></heed-console-inbox>`,
  );
  el.addEventListener('heed-announce', (e) => announced.push((e as CustomEvent<{ text: string }>).detail.text));
  const root = el.shadowRoot!;
  const rows = () => [...root.querySelector('heed-console-conversations')!.shadowRoot!.querySelectorAll('ul[aria-label=Conversations] li')];
  const profile = () => root.querySelector('heed-visitor-profile');
  await waitUntil(
    () => rows().length === 2 && profile()?.shadowRoot?.querySelector('heed-visitor-erase'),
    'the list and the visitor shown',
  );
  return { el, root, fake, announced, rows, profile };
}

describe('heed-console-inbox', () => {
  afterEach(() => history.replaceState(null, '', location.pathname));

  it('says the open conversation was deleted when it is, instead of its transcript, and drops its row', async () => {
    const { el, root, fake, announced, rows, profile } = await inbox();
    fake.emitRemoved(open.id);
    await waitUntil(() => root.querySelector('.conversation-pane .deleted'), 'the pane says deleted');
    expect(root.querySelector('.conversation-pane .deleted')!.textContent).to.equal('This conversation was deleted.');
    expect(root.querySelector('heed-console-transcript') === null).to.be.true;
    expect(profile() === null).to.be.true;
    await waitUntil(() => rows().length === 1, 'the row dropped');
    expect(rows()[0]!.getAttribute('data-id')).to.equal(other.id);
    expect(announced).to.deep.equal(['This conversation was deleted.']);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('ignores the deletion of another conversation', async () => {
    const { root, fake, rows } = await inbox();
    fake.emitRemoved(other.id);
    await waitUntil(() => rows().length === 1, 'the row dropped');
    expect(root.querySelector('heed-console-transcript') !== null).to.be.true;
  });

  it('leaves for the list once the visitor is erased, the erasure saying what went and nothing else', async () => {
    let emitRemoved: (id: string) => void = () => {};
    // as the server does: the removals reach the live list before the erasure's answer
    const { root, fake, announced, profile } = await inbox({
      eraseVisitor: async () => {
        emitRemoved(open.id);
        emitRemoved(other.id);
        return erasureResult();
      },
    });
    emitRemoved = fake.emitRemoved;
    profile()!.shadowRoot!.querySelector('heed-visitor-erase')!.shadowRoot!.querySelector('button')!.click();
    const dialog = () =>
      profile()!.shadowRoot!.querySelector('heed-visitor-erase')!.shadowRoot!.querySelector('heed-confirm-dialog')!.shadowRoot!;
    await waitUntil(() => dialog().querySelector('dialog')?.open, 'the confirmation open');
    dialog().querySelector<HTMLButtonElement>('button.danger')!.click();
    await waitUntil(() => location.hash === '#/conversations', 'back to the list');
    expect(announced).to.deep.equal(['Visitor data deleted: 3 conversations, 41 messages and 2 files. A record of the erasure stays.']);
    expect(root.querySelector('.conversation-pane .deleted') === null).to.be.true;
  });
});
