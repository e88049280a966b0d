import { createHash } from 'node:crypto';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinListEnvelope, PinRecord, PinStatus } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createUser, createUserKey, expectError, ownerAccountRow } from '../helpers/account-api.js';
import { withServerStore } from '../helpers/suite-metadata.js';
import type { Key } from './uploads-helpers.js';

/**
 * Issue 12, api12.md section 5: GET /api/v0/pin at 100,000 pins. The pins are written straight into the
 * metadata store, on either engine (the way they would be after months of use), then the list is read
 * through the API and compared with a model of what it must answer. No timing here: test/bench/pins-api.ts measures.
 */

const COUNT = 100_000;
const DAG_PB = 0x70;
const WORDS = ['photo', 'Report', 'backup', 'Ünïcode Ärchive', 'music', 'video', 'archive', 'notes'];
const STATUSES: PinStatus[] = ['pinned', 'pinned', 'pinned', 'pinning', 'pinned', 'failure', 'pinned', 'unpinning'];

interface ModelPin extends PinRecord {
  /** Insertion order: ids grow with it, and it breaks created_at ties as id does. */
  order: number;
}

function digestOf(i: number) {
  return createDigest(0x12, createHash('sha256').update(`pin ${i}`).digest());
}

/** Newest first: created_at, then insertion order (the id), both descending. */
function newestFirst(a: ModelPin, b: ModelPin): number {
  return b.created_at - a.created_at || b.order - a.order;
}

function records(pins: readonly ModelPin[]): PinRecord[] {
  return pins.map(({ name, cid, status, size, created_at }) => ({ name, cid, status, size, created_at }));
}

describe('the pin list at 100,000 pins', () => {
  let server: TestServer;
  let userKey: Key;
  const model: ModelPin[] = [];
  // One dag-pb CID stored in its v0 spelling, one in its v1 spelling, and a raw CID sharing the first one's multihash.
  const sharedDigest = digestOf(-1);
  const storedV0 = CID.createV0(sharedDigest);
  const storedV1 = CID.createV1(DAG_PB, digestOf(-2));
  const sameHashRaw = CID.createV1(raw.code, sharedDigest);

  beforeAll(async () => {
    server = await startTestServer();
    await createUser(server, server.owner, 'list-user');
    userKey = await createUserKey(server, server.owner, 'list-user', 'admin', ['admin']);
    const ownerId = (await ownerAccountRow(server)).id;
    const base = Math.floor(Date.now() / 1000) - COUNT;
    const specials = [
      { cid: storedV0.toString(), name: '100% real_file.txt' },
      { cid: storedV1.toString(), name: 'under_score' },
      { cid: sameHashRaw.toString(), name: 'raw twin' },
    ];
    await withServerStore(
      server,
      (store) =>
        store.transaction(async (tx) => {
          const userId = (await tx.accounts.accountByUuid('list-user'))?.id;
          if (userId === undefined) throw new Error('no user');
          for (let i = 0; i < COUNT + specials.length; i++) {
            const special = specials[i - COUNT];
            const pin: ModelPin = {
              cid: special?.cid ?? CID.createV1(raw.code, digestOf(i)).toString(),
              name: special?.name ?? `${WORDS[i % WORDS.length] as string} ${i}`,
              // Not in step with WORDS, so every word comes in every status.
              status: STATUSES[Math.floor(i / WORDS.length) % STATUSES.length] as PinStatus,
              size: i,
              // Several pins per second, so created_at ties are broken by id.
              created_at: base + Math.floor(i / 3),
              order: i,
            };
            await tx.pins.insertPin({
              accountId: ownerId,
              cid: pin.cid,
              name: pin.name,
              status: pin.status,
              size: pin.size,
              createdAt: pin.created_at,
              deadline: null,
            });
            model.push(pin);
          }
          for (let i = 0; i < 50; i++) {
            await tx.pins.insertPin({
              accountId: userId,
              cid: CID.createV1(raw.code, digestOf(i)).toString(),
              name: `Report of user ${i}`,
              status: 'pinned',
              size: 1,
              createdAt: base,
              deadline: null,
            });
          }
        }),
      'write',
    );
    model.sort(newestFirst);
  }, 120_000);

  afterAll(async () => {
    await server.stop();
  });

  async function list(query: Record<string, string | number>, key: Key = server.owner) {
    const response = await call<PinListEnvelope>(server, 'GET', '/api/v0/pin', { key, query });
    expect(response.status, response.text).toBe(200);
    return response.json;
  }

  function expectPage(answer: PinListEnvelope, matching: readonly ModelPin[], start: number, limit: number): void {
    expect(answer.total).toBe(matching.length);
    expect(answer.data).toEqual(records(matching.slice(start, start + limit)));
  }

  it('first, last, partial last, middle and past-the-end pages are the right slices of the newest-first list', async () => {
    const total = model.length;
    for (const [start, limit] of [
      [0, 10],
      [total - 10, 10],
      [total - 3, 10],
      [Math.floor(total / 2), 25],
      [Math.floor(total / 2) - 1, 3],
      [Math.floor(total / 2) + 1, 3],
      [77_777, 1000],
      [total - 1000, 1000],
    ] as const) {
      expectPage(await list({ start, limit }), model, start, limit);
    }
    const end = await list({ start: total, limit: 10 });
    expect(end).toEqual({ code: 200, data: [], total });
    expect((await list({ start: total + 5000 })).data).toEqual([]);
  });

  it('status filter: the total counts what matches; deep pages are right', async () => {
    for (const status of ['pinning', 'failure', 'unpinning', 'pinned'] as const) {
      const matching = model.filter((pin) => pin.status === status);
      expectPage(await list({ status, limit: 7 }), matching, 0, 7);
      expectPage(await list({ status, start: matching.length - 7, limit: 7 }), matching, matching.length - 7, 7);
      expectPage(await list({ status, start: Math.floor(matching.length / 2) + 3, limit: 50 }), matching, Math.floor(matching.length / 2) + 3, 50);
    }
  });

  it('status=active: every pin but the unpinning ones, counted and paged (issue 26), with a name filter too', async () => {
    const active = model.filter((pin) => pin.status !== 'unpinning');
    expectPage(await list({ status: 'active', limit: 20 }), active, 0, 20);
    expectPage(await list({ status: 'active', start: Math.floor(active.length / 2) + 11, limit: 50 }), active, Math.floor(active.length / 2) + 11, 50);
    expectPage(await list({ status: 'active', start: active.length - 5, limit: 10 }), active, active.length - 5, 10);
    const named = active.filter((pin) => pin.name.toLowerCase().includes('notes'));
    expectPage(await list({ status: 'active', name: 'NOTES', limit: 30 }), named, 0, 30);
  });

  it('name filter: a case-insensitive substring (Unicode too), wildcards literal, combined with status and paging', async () => {
    const named = (text: string) => model.filter((pin) => pin.name.toLowerCase().includes(text.toLowerCase()));
    for (const text of ['REPORT 9', 'report 12', 'ünï', 'ÄRCHIVE 99', 'photo 4242', '9999']) {
      const matching = named(text);
      expect(matching.length, text).toBeGreaterThan(0);
      expectPage(await list({ name: text, limit: 20 }), matching, 0, 20);
      expectPage(await list({ name: text, start: Math.max(0, matching.length - 20), limit: 20 }), matching, Math.max(0, matching.length - 20), 20);
    }
    expectPage(await list({ name: '%', limit: 10 }), named('%'), 0, 10);
    expect((await list({ name: '%' })).total).toBe(1);
    expect((await list({ name: '_' })).data.map((pin) => pin.name).sort()).toEqual(['100% real_file.txt', 'under_score']);
    expect((await list({ name: 'no such name' })).total).toBe(0);
    const pinningReports = model.filter((pin) => pin.status === 'pinning' && pin.name.toLowerCase().includes('report'));
    expectPage(await list({ name: 'report', status: 'pinning', start: 100, limit: 10 }), pinningReports, 100, 10);
    expect(pinningReports.length).toBeGreaterThan(110);
  });

  it('cid filter: any spelling of one CID finds its pin (v0 and v1 of a dag-pb CID); another codec does not', async () => {
    const find = async (cid: string) => (await list({ cid })).data.map((pin) => pin.cid);
    expect(await find(storedV0.toString())).toEqual([storedV0.toString()]);
    expect(await find(storedV0.toV1().toString())).toEqual([storedV0.toString()]);
    expect(await find(storedV1.toString())).toEqual([storedV1.toString()]);
    expect(await find(storedV1.toV0().toString())).toEqual([storedV1.toString()]);
    expect(await find(sameHashRaw.toString())).toEqual([sameHashRaw.toString()]);
    const some = model[12_345] as ModelPin;
    expect((await list({ cid: some.cid })).data).toEqual(records([some]));
    expect((await list({ cid: some.cid, status: some.status === 'pinned' ? 'failure' : 'pinned' })).total).toBe(0);
    expect((await list({ cid: CID.createV1(raw.code, digestOf(COUNT + 99)).toString() })).total).toBe(0);
  });

  it('cursors: next and prev walk the list page by page, at any depth, under a filter too', async () => {
    const first = await list({ limit: 25 });
    expect(first.prev).toBeUndefined();
    let page = first;
    for (let n = 1; n <= 3; n++) {
      expect(page.next).toEqual(expect.any(String));
      page = await list({ after: page.next as string, limit: 25 });
      expectPage(page, model, n * 25, 25);
    }
    const back = await list({ before: page.prev as string, limit: 25 });
    expectPage(back, model, 50, 25);

    const deep = await list({ start: 60_000, limit: 100 });
    expectPage(deep, model, 60_000, 100);
    expectPage(await list({ after: deep.next as string, limit: 100 }), model, 60_100, 100);
    expectPage(await list({ before: deep.prev as string, limit: 100 }), model, 59_900, 100);

    const last = await list({ start: model.length - 10, limit: 10 });
    expect(last.next).toBeUndefined();
    expect(last.prev).toEqual(expect.any(String));
    const nearEnd = await list({ start: model.length - 10, limit: 9 });
    const tail = await list({ after: nearEnd.next as string, limit: 10 });
    expectPage(tail, model, model.length - 1, 10);
    expect(tail.next).toBeUndefined();

    const reports = model.filter((pin) => pin.name.toLowerCase().includes('report'));
    const filtered = await list({ name: 'report', start: 5000, limit: 10 });
    expectPage(await list({ name: 'report', after: filtered.next as string, limit: 10 }), reports, 5010, 10);
  });

  it("another account's pins are not listed, and the owner's are not in theirs", async () => {
    const theirs = await list({ name: 'report', limit: 100 }, userKey);
    expect(theirs.total).toBe(50);
    expect(theirs.data.every((pin) => pin.name.startsWith('Report of user'))).toBe(true);
    expect((await list({ name: 'of user' })).total).toBe(0);
  });

  it('bad filters and cursors are 400 naming the parameter', async () => {
    const bad: [Record<string, string | number>, RegExp][] = [
      [{ name: 'x'.repeat(256) }, /name must be 1 to 255 characters/],
      [{ cid: 'not-a-cid' }, /cid is not a valid CID/],
      [{ cid: 'x'.repeat(600) }, /cid is not a valid CID/],
      [{ status: 'done' }, /status must be one of/],
      [{ after: '!!!' }, /after is not a cursor/],
      [{ after: Buffer.from('12.x').toString('base64url') }, /after is not a cursor/],
      [{ before: Buffer.from('1.2.3').toString('base64url') }, /before is not a cursor/],
      [{ after: Buffer.from('1.2').toString('base64url'), before: Buffer.from('1.2').toString('base64url') }, /after and before cannot be used together/],
      [{ after: Buffer.from('1.2').toString('base64url'), start: 10 }, /start cannot be used with after or before/],
      [{ limit: 0 }, /limit must be an integer from 1 to 1000/],
      [{ limit: 1001 }, /limit must be an integer from 1 to 1000/],
      [{ start: -1 }, /start must be an integer/],
    ];
    for (const [query, msg] of bad) expectError(await call(server, 'GET', '/api/v0/pin', { key: server.owner, query }), 400, msg);
    const twice = await fetch(`${server.url}/api/v0/pin?ts=${Math.floor(Date.now() / 1000)}&name=a&name=b`, {
      headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret },
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { msg: string }).msg).toMatch(/^name must be one text/);
  });
});
