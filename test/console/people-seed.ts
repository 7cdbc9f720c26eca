import { randomUUID } from 'node:crypto';
import type { Services } from '../../api/src/services.ts';

/**
 * The team's side of conversations for the overview's people figures, written straight to the
 * database at chosen times, in the order they happened (so `seq` follows time, as it does live):
 * the visitor's messages, the assistant's replies, the hand-off notice, the takeover notice,
 * operators' messages, and the status columns the inbox's resolve leaves (set directly: the
 * procedures that resolve are tested on their own).
 */
export class PeopleSeed {
  constructor(
    private readonly services: Services,
    readonly siteId: string,
    readonly visitorId: string,
  ) {}

  /** A new site with one visitor, to seed into. */
  static async site(services: Services, name = 'People site'): Promise<PeopleSeed> {
    const site = await services.db.site.create({ data: { key: `people-${randomUUID().slice(0, 8)}`, name }, select: { id: true } });
    const visitor = await services.db.visitor.create({ data: { siteId: site.id }, select: { id: true } });
    return new PeopleSeed(services, site.id, visitor.id);
  }

  /** An operator of the team (an agent), by name. */
  static async operator(services: Services, name: string): Promise<string> {
    const row = await services.db.operator.create({
      data: { email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`, name, allSites: true },
      select: { id: true },
    });
    return row.id;
  }

  /** A conversation started at `at` (private when asked). */
  async conversation(at: string, opts: { private?: boolean } = {}): Promise<string> {
    const row = await this.services.db.conversation.create({
      data: { siteId: this.siteId, visitorId: this.visitorId, createdAt: new Date(at), updatedAt: new Date(at), private: !!opts.private },
      select: { id: true },
    });
    return row.id;
  }

  /** The visitor writes (answered: the pipeline's outbox state once a reply or a person answered it). */
  visitor(conversationId: string, at: string) {
    return this.message(conversationId, at, { role: 'user', content: 'A question', state: 'answered' });
  }

  /** The assistant replies; `failed` stores a failed reply. */
  assistant(conversationId: string, at: string, opts: { failed?: boolean } = {}) {
    return this.message(conversationId, at, { role: 'assistant', content: 'An answer', error: opts.failed ? 'model_timeout' : null });
  }

  /** The assistant handed the conversation to a person ("waiting for a person"). */
  handoff(conversationId: string, at: string) {
    return this.message(conversationId, at, { role: 'notice', content: '', provenance: 'handoff_requested', provenanceLabel: 'Shop' });
  }

  /** An operator took it over ("Ana joined"). */
  joined(conversationId: string, at: string, operatorId: string) {
    return this.message(conversationId, at, { role: 'notice', content: '', provenance: 'operator_joined', operatorId });
  }

  /** An operator writes to the visitor. */
  operator(conversationId: string, at: string, operatorId: string) {
    return this.message(conversationId, at, { role: 'operator', content: 'A person answers', provenance: 'operator', operatorId });
  }

  /** Resolved at `at`, assigned to `assigneeId` (or to nobody). */
  async resolve(conversationId: string, at: string, assigneeId: string | null = null): Promise<void> {
    await this.services.db.conversation.update({
      where: { id: conversationId },
      data: { status: 'resolved', resolvedAt: new Date(at), assigneeId, assignedAt: assigneeId ? new Date(at) : null },
      select: { id: true },
    });
  }

  /** The visitor rated it at `at`. */
  async rate(conversationId: string, at: string, rating: 1 | -1, comment: string | null = null): Promise<void> {
    await this.services.db.conversation.update({
      where: { id: conversationId },
      data: { rating, ratingComment: comment, ratedAt: new Date(at) },
      select: { id: true },
    });
  }

  private async message(
    conversationId: string,
    at: string,
    data: {
      role: 'user' | 'assistant' | 'operator' | 'notice';
      content: string;
      state?: 'answered';
      error?: string | null;
      provenance?: string;
      provenanceLabel?: string;
      operatorId?: string;
    },
  ): Promise<void> {
    await this.services.db.message.create({
      data: { conversationId, visitorId: this.visitorId, createdAt: new Date(at), ...data },
      select: { id: true },
    });
  }
}
