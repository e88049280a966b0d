import { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../main/base/errors.js';
import type { NamesContext } from '../../../main/names/context.js';
import { generateNameKey, nameOfKey, type NameKey } from '../../../main/names/keys.js';
import { RECORD_TTL_SECONDS, signRecord } from '../../../main/names/records.js';
import { createNameResolver, NEGATIVE_TTL_MS, resolveName } from '../../../main/names/resolver.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import { createName } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';
import { manualClock } from '../../helpers/manual-clock.js';
import { forged, scriptedNameNetwork } from '../../helpers/ipns-fakes.js';

const CID_A = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');
const CID_B = CID.parse('bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
const CID_C = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');
const HOUR_MS = 60 * 60_000;

let t: TestDb;
let clock: ReturnType<typeof manualClock>;
let net: ReturnType<typeof scriptedNameNetwork>;
let ctx: NamesContext;
let key: NameKey;
let name: string;

const sign = (cid: CID, seq: number): Promise<Uint8Array> => signRecord(key, cid, seq, clock.nowMs(), HOUR_MS);

beforeEach(async () => {
  t = tempDb();
  clock = manualClock(Math.ceil(Date.now() / 1000) * 1000);
  net = scriptedNameNetwork();
  ctx = namesContext(t.db, { clock, networkRecords: net.network });
  key = await generateNameKey();
  name = nameOfKey(key);
});
afterEach(() => t.cleanup());

describe('names held elsewhere resolve through the network (contract section 11)', () => {
  it('uses the record the network answers, marks it not held, and asks again only once its TTL has passed', async () => {
    net.answer([await sign(CID_A, 1)]);
    const first = await resolveName(ctx, name);
    expect(first.cid.toString()).toBe(CID_A.toString());
    expect(first.held).toBe(false);
    expect(first.ttlSeconds).toBe(RECORD_TTL_SECONDS);
    expect(net.asked).toHaveLength(1);
    expect(ctx.resolver.peek(name)).toEqual(first);

    net.answer([await sign(CID_B, 2)]);
    clock.advance(RECORD_TTL_SECONDS * 1000 - 1000);
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_A.toString());
    expect(net.asked).toHaveLength(1);
    clock.advance(1000);
    expect(ctx.resolver.peek(name)).toBeUndefined();
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_B.toString());
    expect(net.asked).toHaveLength(2);
  });

  it('takes the highest sequence of all answers, and never goes back to a lower one than it has seen', async () => {
    net.answer([await sign(CID_A, 3), await sign(CID_B, 7), await sign(CID_C, 5)]);
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_B.toString());
    // Kept in the store: a restart (a fresh resolver) still knows sequence 7.
    expect(await sqliteStore(t.db).names.routingRecord(name)).not.toBeNull();

    net.answer([await sign(CID_C, 6)]);
    clock.advance(RECORD_TTL_SECONDS * 1000);
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_B.toString());
    const restarted = createNameResolver({ names: sqliteStore(t.db).names, clock, txt: async () => null, network: net.network });
    expect((await restarted.resolve(name)).cid.toString()).toBe(CID_B.toString());

    net.answer([await sign(CID_C, 8)]);
    clock.advance(RECORD_TTL_SECONDS * 1000);
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_C.toString());
  });

  it('refuses a record whose signature does not verify, and a record of another name', async () => {
    const good = await sign(CID_A, 1);
    const otherKey = await generateNameKey();
    const ofAnotherName = await signRecord(otherKey, CID_C, 9, clock.nowMs(), HOUR_MS);
    net.answer([forged(await sign(CID_B, 9)), ofAnotherName]);
    await expect(resolveName(ctx, name)).rejects.toBeInstanceOf(NotFoundError);
    expect(await sqliteStore(t.db).names.routingRecord(name)).toBeNull();

    // Not asked again while the "no record" answer is fresh; then the good one wins over the bad ones.
    net.answer([forged(await sign(CID_B, 9)), good, ofAnotherName]);
    await expect(resolveName(ctx, name)).rejects.toBeInstanceOf(NotFoundError);
    expect(net.asked).toHaveLength(1);
    clock.advance(NEGATIVE_TTL_MS);
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_A.toString());
  });

  it('never asks the network for a name held here', async () => {
    const alice = addAccount(t.db);
    const created = await createName(ctx, alice, CID_A.toString());
    const resolution = await resolveName(ctx, created.name);
    expect(resolution.held).toBe(true);
    expect(net.asked).toEqual([]);
  });

  it('still serves a record it cannot keep once the store holds its most records of other names', async () => {
    const store = sqliteStore(t.db);
    await store.names.putRoutingRecord('k51other', new Uint8Array([1]), 1);
    const bounded = createNameResolver({ names: store.names, clock, txt: async () => null, network: net.network, maxStoredRecords: 1 });
    net.answer([await sign(CID_A, 1)]);
    expect((await bounded.resolve(name)).cid.toString()).toBe(CID_A.toString());
    expect(await store.names.routingRecord(name)).toBeNull();
  });
});
