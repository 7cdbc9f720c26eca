import { z } from 'zod';
import { uuid } from '../../inputs/fields.ts';
import { overviewRange } from '../overview/range.ts';
import { LIST_FILTERS } from '../conversations/list-filter.ts';

/** Longest search accepted, in characters (a phrase, not a document). */
export const SEARCH_MAX = 200;

/**
 * A query string as an object, empty values dropped: the console builds its links as
 * `?siteId=&filter=&search=` and an empty parameter means "not set", not "the empty id".
 */
export function queryObject(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries([...params].filter(([, value]) => value !== ''));
}

/** `GET /admin/export/conversations.csv?siteId=&filter=&search=` (the list's own filters). */
export const conversationsExportQuery = z.strictObject({
  siteId: uuid.optional(),
  filter: z.enum(LIST_FILTERS).default('all'),
  search: z
    .string()
    .max(SEARCH_MAX, `at most ${SEARCH_MAX} characters`)
    // the list's own rule: PostgreSQL text refuses NUL, and no search needs control characters
    .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'must not contain control characters')
    .optional(),
});

/** `GET /admin/export/overview.csv?range=&siteId=` (the overview's own input). */
export const overviewExportQuery = z.strictObject({ range: overviewRange, siteId: uuid.optional() });

/** `GET /admin/export/visitor.json?conversationId=` (the visitor of a conversation the operator may read). */
export const visitorExportQuery = z.strictObject({ conversationId: uuid });

/** A zod error as one line a person can act on: `filter: Invalid option…; siteId: Invalid UUID`. */
export function describeQueryError(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`).join('; ');
}
