import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../../main/store/repositories/index.js';
import type { NewPin, PinFilter, PinSearch, PinsRepository } from '../../../main/store/repositories/pins.js';
import { insertTestAccount } from '../../helpers/account-rows.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

const NO_FILTER: PinFilter = { status: null, nameLower: null, cids: null };
const EVERY_STATUS: PinSearch = { statuses: ['pinning', 'pinned', 'failure'], cids: null, name: null, meta: null, createdBeforeMs: null, createdAfterMs: null };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function newPin(accountId: number, cid: string, createdAt: number, more: Partial<NewPin> = {}): NewPin {
  return { accountId, cid, name: '', status: 'pinned', size: 0, createdAt, deadline: null, ...more };
}

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('PinsRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let pins: PinsRepository;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    const repo: PinsRepository = repository(database, 'pins');
    pins = repo;
    // The cases name accounts 1 and 2: a fresh database gives them those ids.
    expect(await insertTestAccount(database, { uuid: 'account-1' })).toBe(1);
    expect(await insertTestAccount(database, { uuid: 'account-2' })).toBe(2);
  });
  afterEach(() => database.close());

  /** Inserts the pins and answers their ids, in order. */
  async function insertAll(list: NewPin[]): Promise<number[]> {
    const ids: number[] = [];
    for (const pin of list) {
      await pins.insertPin(pin);
      const found = await pins.pinOf(pin.accountId, pin.cid);
      if (!found) throw new Error('inserted pin not found');
      ids.push(found.id);
    }
    return ids;
  }

  it('answers null for an unknown pin, the whole row once inserted, and refuses a second pin of the same CID in one account', async () => {
    expect(await pins.pinOf(1, 'bafy1')).toBeNull();
    await pins.insertPin(newPin(1, 'bafy1', 1000, { name: 'one', status: 'pinning', size: 2 ** 40 + 3, deadline: 2000 }));
    const pin = await pins.pinOf(1, 'bafy1');
    expect(pin).toEqual({
      id: expect.any(Number) as number,
      accountId: 1,
      cid: 'bafy1',
      name: 'one',
      status: 'pinning',
      size: 2 ** 40 + 3,
      createdAt: 1000,
      updatedAt: 1000,
      deadline: 2000,
      requestId: expect.stringMatching(UUID) as string,
      createdMs: 1_000_000,
    });
    expect(await pins.pinOf(2, 'bafy1')).toBeNull();
    await expect(pins.insertPin(newPin(1, 'bafy1', 1001))).rejects.toBeInstanceOf(UniqueViolation);
    await pins.insertPin(newPin(2, 'bafy1', 1001));
    expect((await pins.pinOf(2, 'bafy1'))?.deadline).toBeNull();
  });

  it('updates the state, renames and deletes by id; an unknown id changes nothing', async () => {
    const [id] = await insertAll([newPin(1, 'bafy1', 1000, { status: 'pinning', deadline: 5000 })]);
    if (id === undefined) throw new Error('no id');
    await pins.updatePinState(id, 'pinned', 1234, null, 1100);
    expect(await pins.pinOf(1, 'bafy1')).toMatchObject({ status: 'pinned', size: 1234, deadline: null, updatedAt: 1100, createdAt: 1000 });
    await pins.updatePinState(id, 'failure', 0, 7000, 1200);
    expect(await pins.pinOf(1, 'bafy1')).toMatchObject({ status: 'failure', size: 0, deadline: 7000, updatedAt: 1200 });
    await pins.renamePin(id, 'Ünïcode name', 1300);
    expect(await pins.pinOf(1, 'bafy1')).toMatchObject({ name: 'Ünïcode name', updatedAt: 1300, status: 'failure' });
    await pins.renamePin(id + 100, 'x', 1400);
    await pins.updatePinState(id + 100, 'pinned', 1, null, 1400);
    await pins.deletePin(id + 100);
    expect(await pins.pinOf(1, 'bafy1')).toMatchObject({ name: 'Ünïcode name', updatedAt: 1300 });
    await pins.deletePin(id);
    expect(await pins.pinOf(1, 'bafy1')).toBeNull();
  });

  it('pages newest first, ties on created_at broken by id, from either end, by offset or from a position', async () => {
    const ids = await insertAll([
      newPin(1, 'a', 100),
      newPin(1, 'b', 200),
      newPin(1, 'c', 200),
      newPin(1, 'd', 300),
      newPin(2, 'other', 250),
      newPin(1, 'e', 50),
    ]);
    const [a, b, c, d, , e] = ids as [number, number, number, number, number, number];
    const idsOf = async (page: Parameters<PinsRepository['pinPageRows']>[2]) => (await pins.pinPageRows(1, NO_FILTER, page)).map((pin) => pin.id);
    expect(await idsOf({ limit: 10, offset: 0, from: 'newest' })).toEqual([d, c, b, a, e]);
    expect(await idsOf({ limit: 2, offset: 1, from: 'newest' })).toEqual([c, b]);
    expect(await idsOf({ limit: 2, offset: 0, from: 'oldest' })).toEqual([e, a]);
    expect(await idsOf({ limit: 10, offset: 10, from: 'newest' })).toEqual([]);
    expect(await idsOf({ limit: 0, offset: 0, from: 'newest' })).toEqual([]);
    // After c (200, c): b shares its time, a lower id.
    expect(await idsOf({ limit: 10, offset: 0, from: 'newest', olderThan: { createdAt: 200, id: c } })).toEqual([b, a, e]);
    expect(await idsOf({ limit: 1, offset: 1, from: 'newest', olderThan: { createdAt: 200, id: c } })).toEqual([a]);
    // Before b, read from the oldest end: c then d.
    expect(await idsOf({ limit: 10, offset: 0, from: 'oldest', newerThan: { createdAt: 200, id: b } })).toEqual([c, d]);
    expect(await idsOf({ limit: 10, offset: 0, from: 'newest', newerThan: { createdAt: 100, id: a }, olderThan: { createdAt: 300, id: d } })).toEqual([c, b]);
    const [first] = await pins.pinPageRows(1, NO_FILTER, { limit: 1, offset: 0, from: 'newest' });
    expect(first).toMatchObject({ id: d, cid: 'd', accountId: 1, createdAt: 300 });
    expect(await pins.countPinsMatching(1, NO_FILTER)).toBe(5);
    expect(await pins.countPinsMatching(2, NO_FILTER)).toBe(1);
    expect(await pins.countPinsMatching(3, NO_FILTER)).toBe(0);
  });

  it('filters by status, by a lower-cased (Unicode) substring of the name with % and _ literal, and by CID spellings', async () => {
    const [report, draft, percent, underscore, greek, plain] = (await insertAll([
      newPin(1, 'cid-report', 100, { name: 'Quarterly REPORT', status: 'pinned' }),
      newPin(1, 'cid-draft', 200, { name: 'Draft report', status: 'pinning' }),
      newPin(1, 'cid-percent', 300, { name: '100% Done', status: 'pinned' }),
      newPin(1, 'cid-underscore', 400, { name: 'a_b', status: 'failure' }),
      newPin(1, 'cid-greek', 500, { name: 'ÉTÉ ΣΟΦΊΑ', status: 'pinned' }),
      newPin(1, 'cid-plain', 600, { name: 'axb', status: 'pinned' }),
      newPin(2, 'cid-other', 700, { name: 'report', status: 'pinned' }),
    ])) as [number, number, number, number, number, number];
    const matching = async (filter: Partial<PinFilter>) => {
      const full = { ...NO_FILTER, ...filter };
      const found = (await pins.pinPageRows(1, full, { limit: 100, offset: 0, from: 'newest' })).map((pin) => pin.id);
      expect(await pins.countPinsMatching(1, full)).toBe(found.length);
      return found;
    };
    expect(await matching({ status: 'pinned' })).toEqual([plain, greek, percent, report]);
    expect(await matching({ status: 'unpinning' })).toEqual([]);
    expect(await matching({ nameLower: 'report' })).toEqual([draft, report]);
    expect(await matching({ nameLower: 'report', status: 'pinning' })).toEqual([draft]);
    expect(await matching({ nameLower: '%' })).toEqual([percent]);
    expect(await matching({ nameLower: 'a_b' })).toEqual([underscore]);
    expect(await matching({ nameLower: '_' })).toEqual([underscore]);
    expect(await matching({ nameLower: 'été' })).toEqual([greek]);
    expect(await matching({ nameLower: 'σοφία' })).toEqual([greek]);
    expect(await matching({ nameLower: 'ÉTÉ' })).toEqual([]);
    expect(await matching({ nameLower: '' })).toHaveLength(6);
    expect(await matching({ cids: ['cid-draft', 'cid-plain', 'cid-other', 'unknown'] })).toEqual([plain, draft]);
    expect(await matching({ cids: [] })).toEqual([]);
    expect(await matching({ cids: ['cid-draft', 'cid-report'], status: 'pinned', nameLower: 'quarterly' })).toEqual([report]);
    expect(
      (await pins.pinPageRows(1, { ...NO_FILTER, status: 'pinned' }, { limit: 2, offset: 0, from: 'newest', olderThan: { createdAt: 500, id: greek } })).map(
        (pin) => pin.id,
      ),
    ).toEqual([percent, report]);
  });

  it('lists pins by status across accounts in id order, the live root CIDs once each, and an account live pins', async () => {
    const [a, b, c, d, e] = (await insertAll([
      newPin(1, 'shared', 100, { status: 'pinned' }),
      newPin(2, 'shared', 90, { status: 'unpinning' }),
      newPin(2, 'queued', 80, { status: 'pinning' }),
      newPin(1, 'gone', 70, { status: 'unpinning' }),
      newPin(1, 'queued2', 60, { status: 'pinning' }),
      newPin(1, 'broken', 50, { status: 'failure' }),
    ])) as [number, number, number, number, number, number];
    expect((await pins.pinsWithStatus('pinning')).map((pin) => pin.id)).toEqual([c, e]);
    expect((await pins.pinsWithStatus('unpinning')).map((pin) => pin.id)).toEqual([b, d]);
    expect(await pins.pinsWithStatus('pinned')).toEqual([expect.objectContaining({ id: a, accountId: 1, cid: 'shared' })]);
    expect((await pins.liveRootCids()).sort()).toEqual(['broken', 'queued', 'queued2', 'shared']);
    expect((await pins.livePinsOf(1)).map((pin) => pin.id)).toEqual([a, e]);
    expect((await pins.livePinsOf(2)).map((pin) => pin.id)).toEqual([c]);
    expect(await pins.livePinsOf(3)).toEqual([]);
  });

  it('gives each pin a random requestid and a created millisecond unique within its account, in the order of insertion', async () => {
    const [a, b, c, d, e] = await insertAll([
      newPin(1, 'a', 1000),
      newPin(1, 'b', 1000),
      newPin(1, 'c', 1001),
      // A clock that stepped back: still after the account's newest pin.
      newPin(1, 'd', 999),
      newPin(2, 'e', 1000),
    ]);
    const rows = await Promise.all(['a', 'b', 'c', 'd'].map((cid) => pins.pinOf(1, cid)));
    expect(rows.map((row) => row?.createdMs)).toEqual([1_000_000, 1_000_001, 1_001_000, 1_001_001]);
    expect((await pins.pinOf(2, 'e'))?.createdMs).toBe(1_000_000);
    const requestIds = [...rows, await pins.pinOf(2, 'e')].map((row) => row?.requestId ?? '');
    for (const requestId of requestIds) expect(requestId).toMatch(UUID);
    expect(new Set(requestIds).size).toBe(5);
    expect([a, b, c, d, e].every((id) => typeof id === 'number')).toBe(true);

    const before = requestIds[0] as string;
    await pins.renewRequestId(a as number);
    const renewed = (await pins.pinOf(1, 'a'))?.requestId;
    expect(renewed).toMatch(UUID);
    expect(renewed).not.toBe(before);
    expect(await pins.pinByRequestId(1, before)).toBeNull();
    expect(await pins.pinByRequestId(1, renewed as string)).toMatchObject({ id: a, cid: 'a' });
  });

  it('keeps the PSA hints of a pin: none at first, then meta and origins as set; a requestid of another account finds nothing', async () => {
    const [id] = (await insertAll([newPin(1, 'bafy1', 1000, { name: 'n' })])) as [number];
    const requestId = (await pins.pinOf(1, 'bafy1'))?.requestId as string;
    expect(await pins.pinByRequestId(1, requestId)).toMatchObject({ id, cid: 'bafy1', name: 'n', meta: {}, origins: [] });
    expect(await pins.originsOf(id)).toEqual([]);
    await pins.setPinMeta(id, { app_id: '99986338', 'ünï "quoted"': 'välue' });
    await pins.setPinOrigins(id, ['/dns4/example.org/tcp/443/https', '/ip4/127.0.0.1/tcp/8080/http']);
    expect(await pins.pinByRequestId(1, requestId)).toMatchObject({
      meta: { app_id: '99986338', 'ünï "quoted"': 'välue' },
      origins: ['/dns4/example.org/tcp/443/https', '/ip4/127.0.0.1/tcp/8080/http'],
    });
    expect(await pins.originsOf(id)).toEqual(['/dns4/example.org/tcp/443/https', '/ip4/127.0.0.1/tcp/8080/http']);
    expect(await pins.originsOf(id + 100)).toEqual([]);
    expect(await pins.pinByRequestId(2, requestId)).toBeNull();
    expect(await pins.pinByRequestId(1, 'not-a-request')).toBeNull();
  });

  it('searches newest first by created millisecond: statuses, CIDs, the four name matches, meta, before and after, a limit; the count agrees', async () => {
    const [quarterly, draft, percent, greek, other, failed] = (await insertAll([
      newPin(1, 'cid-quarterly', 100, { name: 'Quarterly REPORT', status: 'pinned' }),
      newPin(1, 'cid-draft', 100, { name: 'Draft report', status: 'pinning' }),
      newPin(1, 'cid-percent', 200, { name: '100% Done', status: 'pinned' }),
      newPin(1, 'cid-greek', 300, { name: 'ÉTÉ ΣΟΦΊΑ', status: 'pinned' }),
      newPin(2, 'cid-other', 300, { name: 'Draft report', status: 'pinned' }),
      newPin(1, 'cid-failed', 400, { name: 'a_b', status: 'failure' }),
      newPin(1, 'cid-gone', 500, { name: 'gone', status: 'unpinning' }),
    ])) as [number, number, number, number, number, number];
    await pins.setPinMeta(quarterly, { app: 'books', year: '2026' });
    await pins.setPinMeta(draft, { app: 'books' });
    await pins.setPinMeta(other, { app: 'books' });
    const found = async (search: Partial<PinSearch>, limit = 100) => {
      const full = { ...EVERY_STATUS, ...search };
      const ids = (await pins.searchPins(1, full, limit)).map((pin) => pin.id);
      expect(await pins.countPinSearch(1, full)).toBeGreaterThanOrEqual(ids.length);
      if (ids.length < limit) expect(await pins.countPinSearch(1, full)).toBe(ids.length);
      return ids;
    };
    expect(await found({})).toEqual([failed, greek, percent, draft, quarterly]);
    expect(await found({}, 2)).toEqual([failed, greek]);
    expect(await pins.countPinSearch(1, EVERY_STATUS)).toBe(5);
    expect(await found({ statuses: ['pinned'] })).toEqual([greek, percent, quarterly]);
    expect(await found({ statuses: ['unpinning'] })).toHaveLength(1);
    expect(await found({ statuses: [] })).toEqual([]);
    expect(await found({ cids: ['cid-draft', 'cid-greek', 'cid-other', 'unknown'] })).toEqual([greek, draft]);
    expect(await found({ cids: [] })).toEqual([]);
    expect(await found({ name: { text: 'Draft report', match: 'exact' } })).toEqual([draft]);
    expect(await found({ name: { text: 'draft report', match: 'exact' } })).toEqual([]);
    expect(await found({ name: { text: 'DRAFT Report', match: 'iexact' } })).toEqual([draft]);
    expect(await found({ name: { text: 'été σοφία', match: 'iexact' } })).toEqual([greek]);
    expect(await found({ name: { text: 'report', match: 'partial' } })).toEqual([draft]);
    expect(await found({ name: { text: 'report', match: 'ipartial' } })).toEqual([draft, quarterly]);
    expect(await found({ name: { text: '%', match: 'partial' } })).toEqual([percent]);
    expect(await found({ name: { text: '_', match: 'ipartial' } })).toEqual([failed]);
    expect(await found({ meta: { app: 'books' } })).toEqual([draft, quarterly]);
    expect(await found({ meta: { app: 'books', year: '2026' } })).toEqual([quarterly]);
    expect(await found({ meta: { app: 'books', year: '2025' } })).toEqual([]);
    expect(await found({ meta: { year: '2026', colour: 'red' } })).toEqual([]);
    expect(await found({ meta: {} })).toHaveLength(5);
    // draft shares quarterly's second, one millisecond later.
    expect(await found({ createdBeforeMs: 100_001 })).toEqual([quarterly]);
    expect(await found({ createdBeforeMs: 200_000 })).toEqual([draft, quarterly]);
    expect(await found({ createdAfterMs: 100_000 })).toEqual([failed, greek, percent, draft]);
    expect(await found({ createdAfterMs: 100_000, createdBeforeMs: 300_000, statuses: ['pinned', 'pinning'] })).toEqual([percent, draft]);
    expect(await pins.searchPins(2, EVERY_STATUS, 10)).toEqual([expect.objectContaining({ id: other, meta: { app: 'books' }, origins: [] })]);
  });
});
