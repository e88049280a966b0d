/**
 * Every key of the request cache, one factory per resource, so that a query, the mutation that changes
 * its data and the live event that updates it all name the same thing. A key starts with its area; a
 * prefix (`queryKeys.pins.lists()`) finds every query under it, whatever its arguments.
 */
import type { NameListQuery } from '../api/names.js';
import type { PinListQuery } from '../api/pins.js';
import type { ListPosition } from '../lib/list-params.js';

export const queryKeys = {
  account: {
    all: ['account'] as const,
    /** GET /api/v0/stats: usage against the plan's limits (the header, the Overview). */
    usage: () => ['account', 'usage'] as const,
    /** Whether the account is a partner (the Partners page and its link). */
    partner: () => ['account', 'partner'] as const,
    dailies: () => ['account', 'daily'] as const,
    /** GET /api/v0/stats/daily?days=N. */
    daily: (days: number) => ['account', 'daily', days] as const,
  },
  pins: {
    all: ['pins'] as const,
    lists: () => ['pins', 'list'] as const,
    /** One page of GET /api/v0/pin under its filters. */
    list: (query: PinListQuery) => ['pins', 'list', query] as const,
    records: () => ['pins', 'record'] as const,
    /** GET /api/v0/pin/{cid}, null when the service holds no pin of it (the Files page's recent uploads). */
    record: (cid: string) => ['pins', 'record', cid] as const,
  },
  uploads: {
    all: ['uploads'] as const,
    /** GET /api/v0/upload/settings: the account, the CID profile, whether the gateway is public (the Files page). */
    settings: () => ['uploads', 'settings'] as const,
  },
  service: {
    all: ['service'] as const,
    /** GET /api/v0/service (owner only): null for another account. */
    facts: () => ['service', 'facts'] as const,
    /** GET /api/v0/settings (owner only): every setting, saved and in use; null for another account. */
    settings: () => ['service', 'settings'] as const,
  },
  gateway: {
    all: ['gateway'] as const,
    /** A HEAD of `path` without a key: whether the gateway serves it to anyone (the View page, off localhost). */
    public: (path: string) => ['gateway', 'public', path] as const,
  },
  names: {
    all: ['names'] as const,
    lists: () => ['names', 'list'] as const,
    /** One page of GET /api/v0/ipns, or the one name a search finds (GET /api/v0/ipns/{name}, /ipns/search?alias=). */
    list: (query: NameListQuery) => ['names', 'list', query] as const,
  },
  keys: {
    all: ['keys'] as const,
    /** GET /api/v0/keys: the account's access keys and browser sessions. */
    list: () => ['keys', 'list'] as const,
  },
  partners: {
    all: ['partners'] as const,
    userLists: () => ['partners', 'users'] as const,
    /** One page of GET /api/v0/partner/users. */
    users: (position: ListPosition) => ['partners', 'users', position] as const,
    /** Everything shown of one user: its stats and its keys. */
    user: (uuid: string) => ['partners', 'user', uuid] as const,
    /** GET /api/v0/partner/user/stats?uuid=. */
    userStats: (uuid: string) => ['partners', 'user', uuid, 'stats'] as const,
    /** GET /api/v0/partner/user/keys?uuid=. */
    userKeys: (uuid: string) => ['partners', 'user', uuid, 'keys'] as const,
  },
  plans: {
    /** GET /api/v0/plans: the plans a partner moves its users between. */
    list: () => ['plans', 'list'] as const,
  },
  sync: {
    all: ['sync'] as const,
    /** GET /api/v0/sync: every sync folder (null for an account other than the owner). */
    folders: () => ['sync', 'folders'] as const,
    details: () => ['sync', 'detail'] as const,
    /** GET /api/v0/sync/detail?id=: what a folder's page shows (or why there is none). */
    detail: (id: string) => ['sync', 'detail', id] as const,
    versionLists: (id: string) => ['sync', 'versions', id] as const,
    /** GET /api/v0/sync/versions?id=&limit=: the newest `limit` kept versions of a folder. */
    versions: (id: string, limit: number) => ['sync', 'versions', id, limit] as const,
    /** GET /api/v0/sync/tree: one directory of a version (a root never changes: no event makes it stale). */
    tree: (id: string, root: string, path: string) => ['sync', 'tree', id, root, path] as const,
    /** GET /api/v0/sync/diff: what changed between two versions (as fixed as their roots). */
    diff: (id: string, from: string, to: string) => ['sync', 'diff', id, from, to] as const,
  },
};
