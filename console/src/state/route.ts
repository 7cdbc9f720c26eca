import { LIST_FILTERS } from '../../../api/src/shared/list-filters.ts';
import type { ConversationFilter } from './contract.ts';

/**
 * The console's views and their hash URLs (`/admin/#/conversations/<id>`). Hash routing
 * because the console is one static `index.html` served at `/admin/`: every view is a
 * bookmarkable URL without the server knowing any of them, and an invitation link
 * (`/admin/#/invite/<token>`) never sends its token to the server in a request line.
 */
/**
 * What the inbox's list shows, kept in the URL so a reload, a bookmark or a colleague's link
 * opens the same list (`#/conversations?filter=mine&q=refund&site=<id>`). Absent: all.
 */
export interface ListState {
  filter?: ConversationFilter;
  search?: string;
  siteId?: string;
}

export type Route =
  | { view: 'overview' }
  | { view: 'conversations'; list?: ListState }
  | { view: 'transcript'; conversationId: string; list?: ListState }
  | { view: 'sites' }
  | { view: 'site'; siteId: string | null }
  | { view: 'operators' }
  | { view: 'profile' }
  | { view: 'invite'; token: string };

/** The top-level sections of the navigation, in order. */
export const SECTIONS = [
  { view: 'overview', label: 'Overview' },
  { view: 'conversations', label: 'Conversations' },
  { view: 'sites', label: 'Sites' },
  { view: 'operators', label: 'Operators' },
] as const;

export type Section = (typeof SECTIONS)[number]['view'];

/**
 * The route a location hash names; anything unknown is the conversation list, the view an
 * operator opens the console for.
 * @example parseRoute('#/conversations/abc') // { view: 'transcript', conversationId: 'abc' }
 */
export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.split('?', 2);
  const parts = path
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => safeDecode(p));
  const [head, arg] = parts;
  switch (head) {
    case 'overview':
      return { view: 'overview' };
    case 'sites':
      if (arg === 'new') return { view: 'site', siteId: null };
      return arg ? { view: 'site', siteId: arg } : { view: 'sites' };
    case 'operators':
      return { view: 'operators' };
    case 'profile':
      return { view: 'profile' };
    case 'invite':
      if (arg) return { view: 'invite', token: arg };
      break;
    case 'conversations': {
      const list = listStateOf(query);
      if (arg) return { view: 'transcript', conversationId: arg, ...list };
      return { view: 'conversations', ...list };
    }
  }
  return { view: 'conversations' };
}

/** The list state a query string names (unknown filters and empty values dropped), as `{ list }` or nothing. */
function listStateOf(query: string): { list?: ListState } {
  const q = new URLSearchParams(query);
  const list: ListState = {};
  const filter = q.get('filter') as ConversationFilter | null;
  if (filter && filter !== 'all' && (LIST_FILTERS as readonly string[]).includes(filter)) list.filter = filter;
  const search = q.get('q')?.trim();
  if (search) list.search = search.slice(0, 200);
  const site = q.get('site');
  if (site) list.siteId = site;
  return Object.keys(list).length > 0 ? { list } : {};
}

/** The query string of a list state ('' for the whole list). */
function queryOf(list: ListState | undefined): string {
  const q = new URLSearchParams();
  if (list?.filter && list.filter !== 'all') q.set('filter', list.filter);
  if (list?.search) q.set('q', list.search);
  if (list?.siteId) q.set('site', list.siteId);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** The hash of a route (what links and `location.hash` use). */
export function hrefOf(route: Route): string {
  switch (route.view) {
    case 'transcript':
      return `#/conversations/${encodeURIComponent(route.conversationId)}${queryOf(route.list)}`;
    case 'conversations':
      return `#/conversations${queryOf(route.list)}`;
    case 'site':
      return `#/sites/${route.siteId ? encodeURIComponent(route.siteId) : 'new'}`;
    case 'invite':
      return `#/invite/${encodeURIComponent(route.token)}`;
    default:
      return `#/${route.view}`;
  }
}

/** The navigation section a route belongs to (a transcript is under Conversations). */
export function sectionOf(route: Route): Section | null {
  if (route.view === 'transcript') return 'conversations';
  if (route.view === 'site') return 'sites';
  if (route.view === 'invite' || route.view === 'profile') return null;
  return route.view;
}

/** The document title for a route: the open view first, so a tab strip shows it. */
export function titleOf(route: Route, detail?: string | null): string {
  const names: Record<Route['view'], string> = {
    overview: 'Overview',
    conversations: 'Conversations',
    transcript: 'Transcript',
    sites: 'Sites',
    site: route.view === 'site' && !route.siteId ? 'New site' : 'Site settings',
    operators: 'Operators',
    profile: 'Your profile',
    invite: 'Accept invitation',
  };
  const name = detail ? `${detail} · ${names[route.view]}` : names[route.view];
  return `${name} · Heed console`;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
