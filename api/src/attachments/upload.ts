import { randomBytes } from 'node:crypto';
import { Prisma } from '../db/client.ts';
import { refuse } from '../errors/refusal.ts';
import { siteScopeSql, type SiteScope } from '../operators/site-access.ts';
import type { Services } from '../services.ts';
import { ATTACHMENT_KIND_NAMES, formatBytes, isAttachmentKind, type UploadRefusalCode } from '../shared/attachment-kinds.ts';
import type { SitePolicy } from '../sites/site-policy.ts';
import { attachmentSelect, toAttachmentView, type AttachmentView } from './attachment-view.ts';
import { inspectUpload } from './inspect/inspect-upload.ts';
import { inTurn } from './inspect-queue.ts';
import { newStoreKey } from './store/file-store.ts';
import { deleteStoredFiles } from './sweep-unsent.ts';

/** Who uploads: the conversation's visitor, or an operator whose sites include it. */
export type Uploader = { visitorId: string; siteId: string } | { operatorId: string; sites: SiteScope };

/** An upload refused for what the file is: the code a client words it by, and what it needs to say so. */
export class UploadRefused extends Error {
  override name = 'UploadRefused';
  constructor(
    readonly code: UploadRefusalCode,
    message: string,
    readonly extra: { limitBytes?: number; detected?: string } = {},
  ) {
    super(message);
  }
}

/** The conversation an upload goes to, if the uploader may write to it: its site's policy and its visitor. */
export async function uploadTarget(s: Services, conversationId: string, uploader: Uploader): Promise<UploadTarget> {
  const scope =
    'visitorId' in uploader
      ? Prisma.sql`"visitorId" = ${uploader.visitorId}::uuid AND "siteId" = ${uploader.siteId}::uuid`
      : siteScopeSql(uploader.sites, Prisma.sql`"siteId"`);
  const [row] = await s.db.$queryRaw<{ siteId: string; visitorId: string }[]>`
    SELECT "siteId", "visitorId" FROM "Conversation" WHERE id = ${conversationId}::uuid AND ${scope}`;
  if (!row) throw refuse('not_found', null, 'conversation not found');
  const site = await s.sites.byId(row.siteId);
  if (!site) throw refuse('not_found', null, 'conversation not found');
  return { conversationId, site, visitorId: row.visitorId, uploader };
}

/** Where an upload goes, once the uploader was found to be allowed there ({@link uploadTarget}). */
export interface UploadTarget {
  conversationId: string;
  site: SitePolicy;
  visitorId: string;
  uploader: Uploader;
}

/** The largest file a site takes: its own setting, capped by the deployment's ATTACHMENT_MAX_BYTES. */
export const fileLimitOf = (s: Services, site: Pick<SitePolicy, 'attachmentMaxBytes'>): number =>
  Math.min(site.attachmentMaxBytes, s.config.ATTACHMENT_MAX_BYTES);

/**
 * Keeps one uploaded file for a conversation, not yet sent: decides what it is from its bytes
 * (refusing SVG, HTML and every kind the site does not take), strips image metadata, stores the
 * bytes, then the row. Operators may attach any kind the inspection accepts: the site's list
 * is what it lets its visitors send. Throws {@link UploadRefused} for the file itself.
 * @example const view = await storeUpload(s, await uploadTarget(s, conversationId, { visitorId, siteId }), { name: 'error.png', bytes });
 */
export async function storeUpload(s: Services, target: UploadTarget, input: { name: string; bytes: Buffer }): Promise<AttachmentView> {
  const { site, visitorId, uploader } = target;
  const byVisitor = 'visitorId' in uploader;
  const kinds = site.attachmentKinds.filter(isAttachmentKind);
  if (byVisitor && kinds.length === 0) throw new UploadRefused('attachments_off', 'This site does not take attachments.');
  const limit = fileLimitOf(s, site);
  if (input.bytes.length > limit) throw tooLarge(limit);
  const inspected = await inTurn(() =>
    inspectUpload({ bytes: input.bytes, name: input.name, allowed: byVisitor ? kinds : ATTACHMENT_KIND_NAMES }),
  );
  if (!inspected.ok)
    throw new UploadRefused(inspected.code, inspected.message, { limitBytes: inspected.limitBytes, detected: inspected.detected });
  const storeKey = newStoreKey();
  await s.files.put(storeKey, inspected.bytes, inspected.mime);
  const row = await s.db.attachment
    .create({
      data: {
        siteId: site.id,
        conversationId: target.conversationId,
        visitorId,
        operatorId: 'operatorId' in uploader ? uploader.operatorId : null,
        name: inspected.name,
        mime: inspected.mime,
        bytes: inspected.bytes.length,
        width: inspected.width,
        height: inspected.height,
        sha256: inspected.sha256,
        storeKey,
        text: inspected.text,
        accessKey: randomBytes(16).toString('base64url'),
      },
      select: attachmentSelect,
    })
    .catch(async (err: unknown) => {
      // the row is what the sweep and deletions find bytes by: without one, the bytes go now
      await deleteStoredFiles(s.files, [storeKey], s.logger);
      throw err;
    });
  return toAttachmentView(row);
}

/** Over the per-file limit: said before the bytes are read when the request declares its length. */
export const tooLarge = (limitBytes: number) =>
  new UploadRefused('file_too_large', `Files can be up to ${formatBytes(limitBytes)}.`, { limitBytes });
