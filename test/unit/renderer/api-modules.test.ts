/**
 * Each area module of the renderer's API client: the request it sends (method, path, query, body) and
 * the runtime shape check of what comes back (a malformed answer is a protocol error, never data).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, createPublicApiClient, type ApiClient } from '../../../renderer/api/client.js';
import type { Credentials } from '../../../renderer/api/core.js';
import type {
  DailyUsage,
  IpnsRecordView,
  PinRecord,
  Plan,
  ServiceFacts,
  SessionKey,
  SyncFolderView,
  SyncRestoreResult,
  SyncVersion,
} from '../../../shared/api-types.js';
import { FOLDER as SAMPLE_FOLDER } from '../shared/schemas/samples.js';
import { USAGE } from './fixtures.js';
import { startScriptedService, type ScriptedService } from './scripted-service.js';

const credentials: Credentials = { accessKey: 'key-1', accessSecret: 'secret-1' };

const PLAN: Plan = {
  id: 1,
  name: 'Free',
  price: '0.00',
  pinned_count_limit: 100,
  pinned_bytes_limit: 1024 ** 3,
  ingress_limit: 5 * 1024 ** 3,
  egress_limit: 5 * 1024 ** 3,
  ipns_limit: 3,
};
const DAY: DailyUsage = { day: '2026-11-25', ingress: 10, egress: 20, pinned_bytes: 30, pinned_count: 1 };
const PIN: PinRecord = { name: 'report', cid: 'bafkreigh2akiscaildc', status: 'pinned', size: 12, created_at: 1_700_000_000 };
const NAME: IpnsRecordView = { name: 'k51qzi5uqu5d', value: 'bafkreigh2akiscaildc', alias: 'site', created_at: 1, publish_at: 2, public: false };
const FOLDER: SyncFolderView = { ...SAMPLE_FOLDER, unreadable: [] };
const VERSION: SyncVersion = { root: 'bafyold', created_at: 5, added: 1, modified: 2, removed: 0, bytes: 90 };
const RESTORED: SyncRestoreResult = {
  written: [{ path: 'docs/a.txt', local: '/home/me/site/docs/a (restored 2026-11-25 1403).txt', kind: 'file', beside: true, replaced: false }],
  unchanged: 0,
};
const FACTS: ServiceFacts = {
  version: '0.1.0',
  data_dir: '/data',
  url: 'http://127.0.0.1:5080',
  gc_interval_seconds: 3600,
  gc_grace_seconds: 600,
  cid_profile: 'unixfs-v1-2025',
  public_gateway: false,
  started_at: 1,
  gc_leader: true,
};
const SESSION: SessionKey = { access_key: 'k', access_secret: 's', expires_at: 9, name: 'Browser session 2026-11-25 14:03 UTC' };

let service: ScriptedService;
let api: ApiClient;
beforeAll(async () => {
  service = await startScriptedService();
  api = createApiClient({ baseUrl: service.url, now: () => 1_700_000_000_000, credentials });
});
afterAll(async () => {
  await service.close();
});
beforeEach(() => {
  service.seen = [];
});

/** The last request as "METHOD path?query" without ts, and its JSON body. */
function sent(): { request: string; body: unknown } {
  const last = service.seen.at(-1);
  if (!last) throw new Error('nothing was sent');
  const url = new URL(last.url, 'http://x');
  url.searchParams.delete('ts');
  const query = url.searchParams.toString();
  return { request: `${last.method} ${url.pathname}${query ? `?${query}` : ''}`, body: last.body === '' ? undefined : JSON.parse(last.body) };
}

interface Case {
  name: string;
  call: () => Promise<unknown>;
  answer: () => void;
  request: string;
  body?: unknown;
  result?: unknown;
  /** An answer of the wrong shape, which must be refused. */
  malformed?: () => void;
}

const CASES: Case[] = [
  {
    name: 'account.stats',
    call: () => api.account.stats(),
    answer: () => service.answerData(USAGE),
    request: 'GET /api/v0/stats',
    result: USAGE,
    malformed: () => service.answerData({ ...USAGE, ipns_limit: '3' }),
  },
  {
    name: 'account.daily',
    call: () => api.account.daily(30),
    answer: () => service.answerData([DAY]),
    request: 'GET /api/v0/stats/daily?days=30',
    result: [DAY],
    malformed: () => service.answerData([{ ...DAY, day: '25/11/2026' }]),
  },
  {
    name: 'account.plans',
    call: () => api.account.plans(),
    answer: () => service.answerData([PLAN]),
    request: 'GET /api/v0/plans',
    result: [PLAN],
    malformed: () => service.answerData([{ ...PLAN, price: 0 }]),
  },
  {
    name: 'pins.list',
    call: () => api.pins.list({ status: 'pinned', limit: 25, start: 50 }),
    answer: () => service.answerList([PIN], 1000),
    request: 'GET /api/v0/pin?status=pinned&limit=25&start=50',
    result: { items: [PIN], total: 1000 },
    malformed: () => service.answerList([{ ...PIN, status: 'removed' }]),
  },
  {
    name: 'pins.get',
    call: () => api.pins.get('bafy/x'),
    answer: () => service.answerData(PIN),
    request: 'GET /api/v0/pin/bafy%2Fx',
    result: PIN,
    malformed: () => service.answerData({ ...PIN, size: null }),
  },
  {
    name: 'pins.add',
    call: () => api.pins.add({ cid: 'bafy', name: 'a b' }),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/pin/add?arg=bafy&name=a+b',
  },
  {
    name: 'pins.remove',
    call: () => api.pins.remove('bafy'),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/pin/rm?arg=bafy',
  },
  {
    name: 'pins.rename',
    call: () => api.pins.rename('bafy', 'new'),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/pin/rename',
    body: { cid: 'bafy', name: 'new' },
  },
  {
    name: 'names.list',
    call: () => api.names.list({ limit: 10 }),
    answer: () => service.answerList([NAME], 1),
    request: 'GET /api/v0/ipns?limit=10',
    result: { items: [NAME], total: 1 },
    malformed: () => service.answerList([{ ...NAME, alias: null }]),
  },
  {
    name: 'names.create',
    call: () => api.names.create({ cid: 'bafy', alias: 'site', pin: true }),
    answer: () => service.answerData({ name: 'k51', value: 'bafy' }),
    request: 'POST /api/v0/name/create?arg=bafy&alias=site&pin=true',
    result: { name: 'k51', value: 'bafy' },
    malformed: () => service.answerData({ name: 'k51' }),
  },
  {
    name: 'names.publish',
    call: () => api.names.publish({ name: 'k51', cid: 'bafy' }),
    answer: () => service.answerData({ name: 'k51', value: 'bafy' }),
    request: 'POST /api/v0/name/publish?arg=bafy&key=k51',
  },
  {
    name: 'names.list, a later page',
    call: () => api.names.list({ limit: 25, start: 50 }),
    answer: () => service.answerList([NAME], 51),
    request: 'GET /api/v0/ipns?limit=25&start=50',
    result: { items: [NAME], total: 51 },
  },
  {
    name: 'names.import without a name (extension)',
    call: () => api.names.import({ value: 'bafy', secret_key: 'CAESQ...', format: 'libp2p-protobuf-cleartext', alias: 'blog', seq: 4 }),
    answer: () => service.answerData({ name: 'k51', value: 'bafy' }),
    request: 'POST /api/v0/name/import',
    body: { value: 'bafy', secret_key: 'CAESQ...', format: 'libp2p-protobuf-cleartext', alias: 'blog', seq: 4 },
    result: { name: 'k51', value: 'bafy' },
    malformed: () => service.answerData(undefined),
  },
  {
    name: 'names.setAlias',
    call: () => api.names.setAlias('k51', 'blog'),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/ipns/alias',
    body: { name: 'k51', alias: 'blog' },
  },
  {
    name: 'names.remove',
    call: () => api.names.remove('k51'),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/name/rm?key=k51',
  },
  {
    name: 'keys.list',
    call: () => api.keys.list(),
    answer: () => service.answerData([{ name: 'ci', access_key: 'a', permissions: ['pin'], session: false }]),
    request: 'GET /api/v0/keys',
    result: { items: [{ name: 'ci', access_key: 'a', permissions: ['pin'], session: false }], total: 1 },
    malformed: () => service.answerData([{ name: 'ci', access_key: 'a', permissions: ['fly'], session: false }]),
  },
  {
    name: 'keys.create',
    call: () => api.keys.create({ name: 'ci', permissions: ['read'] }),
    answer: () => service.answerData({ access_key: 'a', access_secret: 's', psa_token: 'a.s' }),
    request: 'POST /api/v0/key',
    body: { name: 'ci', permissions: ['read'] },
    // The token is shown with the secret, once: an answer without it is not the service's.
    malformed: () => service.answerData({ access_key: 'a', access_secret: 's' }),
  },
  {
    name: 'keys.remove',
    call: () => api.keys.remove('ci'),
    answer: () => service.answerData(undefined),
    request: 'DELETE /api/v0/key',
    body: { name: 'ci' },
  },
  {
    name: 'sync.list',
    call: () => api.sync.list(),
    answer: () => service.answerList([FOLDER]),
    request: 'GET /api/v0/sync',
    result: { items: [FOLDER], total: 1 },
    malformed: () => service.answerList([{ ...FOLDER, unreadable: [{ path: 'a' }] }]),
  },
  {
    name: 'sync.add',
    call: () => api.sync.add({ path: '/home/me/site', ignore: ['*.log'] }),
    answer: () => service.answerData({ id: 'f1', path: '/home/me/site', root: '', ipns_name: '' }),
    request: 'POST /api/v0/sync/add',
    body: { path: '/home/me/site', ignore: ['*.log'] },
  },
  {
    name: 'sync.detail',
    call: () => api.sync.detail('f1'),
    answer: () =>
      service.answerData({
        ...FOLDER,
        pinfoldignore: null,
        pinfoldignore_truncated: false,
        batches: [{ root: 'bafy', finished_at: 5, added: 1, modified: 0, removed: 0, bytes: 9 }],
        errors: [{ at: 5, path: 'a.txt', message: 'EACCES' }],
        retention: '1d:all,30d:1d,1y:1w',
      }),
    request: 'GET /api/v0/sync/detail?id=f1',
    malformed: () => service.answerData({ ...FOLDER, pinfoldignore: null, pinfoldignore_truncated: false, batches: [], errors: [] }),
  },
  {
    name: 'sync.list without history_bytes',
    call: () => api.sync.list(),
    answer: () => service.answerList([FOLDER]),
    request: 'GET /api/v0/sync',
    malformed: () => service.answerList([{ ...FOLDER, history_bytes: undefined }]),
  },
  {
    name: 'sync.versions',
    call: () => api.sync.versions('f1', { limit: 20, start: 20 }),
    answer: () => service.answerList([VERSION], 41),
    request: 'GET /api/v0/sync/versions?id=f1&limit=20&start=20',
    result: { items: [VERSION], total: 41 },
    malformed: () => service.answerList([{ ...VERSION, created_at: '5' }]),
  },
  {
    name: 'sync.diff',
    call: () => api.sync.diff('f1', 'bafyold', 'bafynew'),
    answer: () => service.answerData({ added: ['b.txt', 'empty/'], modified: ['a.txt'], removed: [] }),
    request: 'GET /api/v0/sync/diff?id=f1&from=bafyold&to=bafynew',
    result: { added: ['b.txt', 'empty/'], modified: ['a.txt'], removed: [] },
    malformed: () => service.answerData({ added: ['b.txt'], modified: [1], removed: [] }),
  },
  {
    name: 'sync.tree',
    call: () => api.sync.tree('f1', 'bafyold', 'docs/a b'),
    answer: () => service.answerData({ entries: [{ name: 'x.md', kind: 'file', size: 3, cid: 'bafkx' }], truncated: false }),
    request: 'GET /api/v0/sync/tree?id=f1&root=bafyold&path=docs%2Fa+b',
    result: { entries: [{ name: 'x.md', kind: 'file', size: 3, cid: 'bafkx' }], truncated: false },
    malformed: () => service.answerData({ entries: [{ name: 'x.md', kind: 'symlink', size: 3, cid: 'bafkx' }], truncated: false }),
  },
  {
    name: 'sync.restore beside (the default)',
    call: () => api.sync.restore('f1', { root: 'bafyold', path: 'docs/a.txt' }),
    answer: () => service.answerData(RESTORED),
    request: 'POST /api/v0/sync/restore?id=f1&root=bafyold&path=docs%2Fa.txt',
    result: RESTORED,
    malformed: () => service.answerData({ written: [{ ...RESTORED.written[0], kind: 'link' }], unchanged: 0 }),
  },
  {
    name: 'sync.restore the whole folder into another folder, overwriting',
    call: () => api.sync.restore('f1', { root: 'bafyold', path: '', to: '/tmp/out', overwrite: true }),
    answer: () => service.answerData({ written: [], unchanged: 3 }),
    request: 'POST /api/v0/sync/restore?id=f1&root=bafyold&path=&to=%2Ftmp%2Fout&overwrite=true',
    result: { written: [], unchanged: 3 },
    malformed: () => service.answerData({ written: [] }),
  },
  {
    name: 'sync.setRetention',
    call: () => api.sync.setRetention('f1', '24h:all, 30d:1d'),
    answer: () => service.answerData({ keep: '1d:all,30d:1d' }),
    request: 'POST /api/v0/sync/retention?id=f1',
    body: { keep: '24h:all, 30d:1d' },
    result: '1d:all,30d:1d',
    malformed: () => service.answerData({ keep: 5 }),
  },
  {
    name: 'sync.add without waiting',
    call: () => api.sync.add({ path: '/home/me/site' }, { wait: false }),
    answer: () => service.answerData({ id: 'f1', path: '/home/me/site', root: '', ipns_name: '', state: 'scanning' }),
    request: 'POST /api/v0/sync/add?wait=false',
    body: { path: '/home/me/site' },
    result: { id: 'f1', path: '/home/me/site', root: '', ipns_name: '', state: 'scanning' },
    malformed: () => service.answerData({ id: 'f1', path: '/home/me/site', root: '', ipns_name: '', state: 'sleeping' }),
  },
  {
    name: 'sync.rescan',
    call: () => api.sync.rescan('f1'),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/sync/rescan?id=f1',
  },
  { name: 'sync.retry', call: () => api.sync.retry('f1'), answer: () => service.answerData(undefined), request: 'POST /api/v0/sync/retry?id=f1' },
  {
    name: 'sync.setIgnore',
    call: () => api.sync.setIgnore('f1', ['*.log', 'build/']),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/sync/ignore?id=f1',
    body: { ignore: ['*.log', 'build/'] },
  },
  { name: 'sync.pause', call: () => api.sync.pause('f1'), answer: () => service.answerData(undefined), request: 'POST /api/v0/sync/pause?id=f1' },
  { name: 'sync.remove', call: () => api.sync.remove('f1'), answer: () => service.answerData(undefined), request: 'POST /api/v0/sync/rm?id=f1' },
  {
    name: 'partners.users',
    call: () => api.partners.users({ limit: 25, start: 25 }),
    answer: () => service.answerList([{ uuid: 'u1', name: 'Ann', plan: 'Free', created_at: 1, pinned_bytes: 0, pinned_count: 0 }], 26),
    request: 'GET /api/v0/partner/users?limit=25&start=25',
    result: { items: [{ uuid: 'u1', name: 'Ann', plan: 'Free', created_at: 1, pinned_bytes: 0, pinned_count: 0 }], total: 26 },
    malformed: () => service.answerList([{ uuid: 'u1', name: 'Ann', plan: 2, created_at: 1, pinned_bytes: 0, pinned_count: 0 }]),
  },
  {
    name: 'pins.list with the extension filters and a cursor',
    call: () => api.pins.list({ name: 'report', cid: 'QmX', after: 'c1', limit: 10 }),
    answer: () => (service.answer = { status: 200, body: JSON.stringify({ code: 200, data: [PIN], total: 30, next: 'c2', prev: 'c0' }) }),
    request: 'GET /api/v0/pin?name=report&cid=QmX&after=c1&limit=10',
    result: { items: [PIN], total: 30, next: 'c2', prev: 'c0' },
  },
  {
    name: 'partners.userStats',
    call: () => api.partners.userStats('u1'),
    answer: () => service.answerData(USAGE),
    request: 'GET /api/v0/partner/user/stats?uuid=u1',
    malformed: () => service.answerData({}),
  },
  {
    name: 'partners.updatePlan',
    call: () => api.partners.updatePlan('u1', 2),
    answer: () => service.answerData(undefined),
    request: 'POST /api/v0/partner/user/update-plan',
    body: { uuid: 'u1', plan_id: 2 },
  },
  {
    name: 'partners.createUserKey',
    call: () => api.partners.createUserKey('u1', { name: 'ci', permissions: ['pin'] }),
    answer: () => service.answerData({ access_key: 'a', access_secret: 's', psa_token: 'a.s' }),
    request: 'POST /api/v0/partner/user/key',
    body: { uuid: 'u1', name: 'ci', permissions: ['pin'] },
    malformed: () => service.answerData({ access_key: 'a', access_secret: 's' }),
  },
  {
    name: 'partners.deleteUserKey',
    call: () => api.partners.deleteUserKey('u1', 'ci'),
    answer: () => service.answerData(undefined),
    request: 'DELETE /api/v0/partner/user/key',
    body: { uuid: 'u1', name: 'ci' },
  },
  {
    name: 'service.facts',
    call: () => api.service.facts(),
    answer: () => service.answerData(FACTS),
    request: 'GET /api/v0/service',
    result: FACTS,
    malformed: () => service.answerData({ ...FACTS, public_gateway: 'no' }),
  },
  {
    name: 'service.collectGarbage',
    call: () => api.service.collectGarbage(),
    answer: () => service.answerData({ pins_removed: 1, blocks_deleted: 4 }),
    request: 'POST /api/v0/repo/gc',
    result: { pins_removed: 1, blocks_deleted: 4 },
    malformed: () => service.answerData({ pins_removed: 1 }),
  },
  {
    name: 'session.redeem',
    call: () => api.session.redeem('c0de'),
    answer: () => service.answerData(SESSION),
    request: 'POST /api/v0/session?code=c0de',
    result: SESSION,
    malformed: () => service.answerData({ ...SESSION, expires_at: undefined }),
  },
  { name: 'session.end', call: () => api.session.end(), answer: () => service.answerData(undefined), request: 'DELETE /api/v0/session' },
  {
    name: 'session.revokeAll',
    call: () => api.session.revokeAll(),
    answer: () => service.answerData({ revoked: 3 }),
    request: 'DELETE /api/v0/session/all',
    result: { revoked: 3 },
    malformed: () => service.answerData({ revoked: 'all' }),
  },
];

describe('API modules', () => {
  it.each(CASES)('$name sends $request', async (entry) => {
    entry.answer();
    const result = await entry.call();
    expect(sent()).toEqual({ request: entry.request, body: entry.body });
    if ('result' in entry) expect(result).toEqual(entry.result);
  });

  it.each(CASES.filter((entry) => entry.malformed))('$name refuses an answer of the wrong shape', async (entry) => {
    entry.malformed?.();
    await expect(entry.call()).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('session.redeem and account.plans send no key and no ts, though the client has one: the code is the credential, the plans are public', async () => {
    service.answerData(SESSION);
    await api.session.redeem('c0de');
    service.answerData([PLAN]);
    await api.account.plans();
    expect(service.seen.map((seen) => seen.url)).toEqual(['/api/v0/session?code=c0de', '/api/v0/plans']);
    expect(service.seen.map((seen) => seen.headers['x-access-key'])).toEqual([undefined, undefined]);
  });

  it('the keyless client makes the calls that need no key', async () => {
    const keyless = createPublicApiClient({ baseUrl: service.url });
    service.answerData([PLAN]);
    await expect(keyless.account.plans()).resolves.toEqual([PLAN]);
    service.answerData(SESSION);
    await expect(keyless.session.redeem('c0de')).resolves.toEqual(SESSION);
    expect(service.seen.map((seen) => `${seen.method} ${seen.url} ${String(seen.headers['x-access-key'] ?? 'no key')}`)).toEqual([
      'GET /api/v0/plans no key',
      'POST /api/v0/session?code=c0de no key',
    ]);
  });
});

describe('partners.isPartner', () => {
  it('is true when the partner user list answers, false on 403 (not a partner) and 404 (an older service)', async () => {
    service.answerList([], 0);
    await expect(api.partners.isPartner()).resolves.toBe(true);
    expect(sent().request).toBe('GET /api/v0/partner/users?limit=1');
    service.answerError('permission', 'not a partner');
    await expect(api.partners.isPartner()).resolves.toBe(false);
    service.answerError('not_found', 'no such route');
    await expect(api.partners.isPartner()).resolves.toBe(false);
  });

  it('passes any other failure on', async () => {
    service.answerError('internal', 'internal');
    await expect(api.partners.isPartner()).rejects.toMatchObject({ kind: 'http', code: 500 });
  });
});

describe('gateway', () => {
  it('isPublic asks without a key or ts: a 2xx answer is public, a refusal (400 for the missing ts, 401) is not', async () => {
    service.answerData(undefined);
    await expect(api.gateway.isPublic('/ipfs/bafy')).resolves.toBe(true);
    expect(service.seen.at(-1)).toMatchObject({ method: 'HEAD', url: '/ipfs/bafy' });
    expect(service.seen.at(-1)?.headers['x-access-key']).toBeUndefined();
    service.answerError('bad_input', 'ts is required');
    await expect(api.gateway.isPublic('/ipfs/bafy')).resolves.toBe(false);
    service.answerError('unauthenticated', 'no access key');
    await expect(api.gateway.isPublic('/ipns/k51')).resolves.toBe(false);
    service.answerError('internal', 'broken');
    await expect(api.gateway.isPublic('/ipfs/bafy')).rejects.toMatchObject({ kind: 'http', code: 500 });
  });
});
