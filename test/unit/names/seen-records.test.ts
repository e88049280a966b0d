import { privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns';
import { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../../main/base/errors.js';
import type { NamesContext } from '../../../main/names/context.js';
import { generateNameKey, nameOfKey, type NameKey } from '../../../main/names/keys.js';
import { publishOwnedName } from '../../../main/names/manage-names.js';
import { tryParseIpnsName, type IpnsName } from '../../../main/names/name-parse.js';
import { setNamePublic } from '../../../main/names/public-names.js';
import { signRecord } from '../../../main/names/records.js';
import { acceptPutRecord } from '../../../main/names/routing-records.js';
import { conflictOf, lookElsewhere, PUBLISH_CHECK_TIMEOUT_MS, PUSHED_SOURCE } from '../../../main/names/seen-records.js';
import { NAME_LOOKUP_TIMEOUT_MS } from '../../../main/network/name-records.js';
import { importName, publishName } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';
import { manualClock } from '../../helpers/manual-clock.js';
import { ROUTING_SOURCE, scriptedNameNetwork } from '../../helpers/ipns-fakes.js';

const CID_MINE = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');
const CID_THEIRS = CID.parse('bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
const CID_NEXT = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');
const HOUR_MS = 60 * 60_000;

let t: TestDb;
let clock: ReturnType<typeof manualClock>;
let net: ReturnType<typeof scriptedNameNetwork>;
let ctx: NamesContext;
let account: number;
/** The key both "machines" hold: imported here, signing the other machine's records in the test. */
let key: NameKey;
let name: string;
let parsed: IpnsName;

/** A record the other machine holding the key publishes. */
const theirs = (cid: CID, seq: number): Promise<Uint8Array> => signRecord(key, cid, seq, clock.nowMs(), HOUR_MS);

async function held(): Promise<{ seq: number; value: string }> {
  const row = await ctx.store.names.nameByName(name);
  if (row === null) throw new Error('the name is gone');
  return { seq: row.seq, value: row.value };
}

beforeEach(async () => {
  t = tempDb();
  clock = manualClock(Math.ceil(Date.now() / 1000) * 1000);
  net = scriptedNameNetwork();
  ctx = namesContext(t.db, { clock, networkRecords: net.network });
  account = addAccount(t.db);
  key = await generateNameKey();
  name = nameOfKey(key);
  parsed = tryParseIpnsName(name) as IpnsName;
  const secret = Buffer.from(privateKeyToProtobuf(key)).toString('base64');
  await importName(ctx, account, { name, value: CID_MINE.toString(), secret_key: secret, format: 'libp2p-protobuf-cleartext' });
});
afterEach(() => t.cleanup());

describe('two machines, one name (contract section 11)', () => {
  it('a private name is published without asking the network', async () => {
    net.answer([await theirs(CID_THEIRS, 7)]);
    expect((await publishName(ctx, account, name, CID_NEXT.toString())).value).toBe(CID_NEXT.toString());
    expect(net.asked).toEqual([]);
    expect(await held()).toEqual({ seq: 1, value: CID_NEXT.toString() });
  });

  it('a guarded publish of a public name meets a newer record from elsewhere: stopped, the conflict kept and named, nothing overwritten', async () => {
    await setNamePublic(ctx, account, parsed, true);
    net.answer([await theirs(CID_THEIRS, 7), await theirs(CID_MINE, 3)]);
    const outcome = await publishOwnedName(ctx, account, parsed, CID_NEXT, 'stop');
    expect(outcome).toEqual({
      kind: 'conflict',
      seen: { seq: 7, value: `/ipfs/${CID_THEIRS.toString()}`, source: ROUTING_SOURCE, seenAt: clock.nowMs() / 1000 },
    });
    expect(net.asked).toHaveLength(1);
    expect(await held()).toEqual({ seq: 0, value: CID_MINE.toString() });
    const row = await ctx.store.names.nameByName(name);
    if (row === null) throw new Error('the name is gone');
    expect(await conflictOf(ctx.store, row)).toMatchObject({ seq: 7, source: ROUTING_SOURCE });

    // Offline now: the conflict seen stays, and stops the next publish as well.
    net.answer([]);
    expect((await publishOwnedName(ctx, account, parsed, CID_NEXT, 'stop')).kind).toBe('conflict');
    // "Publish mine anyway": above the highest sequence seen.
    expect(await publishOwnedName(ctx, account, parsed, CID_NEXT, 'publish')).toEqual({ kind: 'published', result: { name, value: CID_NEXT.toString() } });
    expect(await held()).toEqual({ seq: 8, value: CID_NEXT.toString() });
    expect(await conflictOf(ctx.store, (await ctx.store.names.nameByName(name)) ?? row)).toBeNull();
    // The network still answering the older record (or the name's own): no conflict, the next one goes above.
    net.answer([await theirs(CID_THEIRS, 7)]);
    expect((await publishOwnedName(ctx, account, parsed, CID_MINE, 'stop')).kind).toBe('published');
    expect((await held()).seq).toBe(9);
  });

  it('the same sequence signed elsewhere with other content is a conflict too', async () => {
    await setNamePublic(ctx, account, parsed, true);
    net.answer([await theirs(CID_THEIRS, 0)]);
    const outcome = await publishOwnedName(ctx, account, parsed, CID_NEXT, 'stop');
    expect(outcome).toMatchObject({ kind: 'conflict', seen: { seq: 0, value: `/ipfs/${CID_THEIRS.toString()}` } });
    // The name's own record, re-signed (a republish elsewhere): no conflict.
    await publishOwnedName(ctx, account, parsed, CID_MINE, 'publish');
    net.answer([await theirs(CID_MINE, 1)]);
    expect((await publishOwnedName(ctx, account, parsed, CID_NEXT, 'stop')).kind).toBe('published');
  });

  it('plain name/publish of a public name never uses a sequence at or below one seen on the network', async () => {
    await setNamePublic(ctx, account, parsed, true);
    net.answer([await theirs(CID_THEIRS, 41)]);
    await publishName(ctx, account, name, CID_NEXT.toString());
    expect(await held()).toEqual({ seq: 42, value: CID_NEXT.toString() });
  });

  it('a record that does not verify is never taken as seen', async () => {
    await setNamePublic(ctx, account, parsed, true);
    const good = unmarshalIPNSRecord(await theirs(CID_THEIRS, 7));
    const signature = Uint8Array.from(good.signatureV2);
    signature[0] = (signature[0] ?? 0) ^ 0xff;
    net.answer([marshalIPNSRecord({ ...good, signatureV2: signature })]);
    expect((await publishOwnedName(ctx, account, parsed, CID_NEXT, 'stop')).kind).toBe('published');
    expect((await held()).seq).toBe(1);
  });

  it('a newer record of a held name PUT to the served routing API is refused (409) and kept as seen', async () => {
    const record = await theirs(CID_THEIRS, 5);
    await expect(acceptPutRecord(ctx, parsed, record)).rejects.toThrow(ConflictError);
    const row = await ctx.store.names.nameByName(name);
    if (row === null) throw new Error('the name is gone');
    expect(await conflictOf(ctx.store, row)).toMatchObject({ seq: 5, value: `/ipfs/${CID_THEIRS.toString()}`, source: PUSHED_SOURCE });
    // A private name never asks the network, but what it was pushed counts: a guarded publish stops.
    expect(await publishOwnedName(ctx, account, parsed, CID_NEXT, 'stop')).toMatchObject({ kind: 'conflict', seen: { seq: 5 } });
    expect((await publishName(ctx, account, name, CID_NEXT.toString())).value).toBe(CID_NEXT.toString());
    expect((await held()).seq).toBe(6);
  });

  it('waits for the network at most its timeout before a publish, and keeps what answered by then', async () => {
    await setNamePublic(ctx, account, parsed, true);
    const late = await theirs(CID_THEIRS, 7);
    const row = await ctx.store.names.nameByName(name);
    if (row === null) throw new Error('the name is gone');
    // A source that answers only once the lookup gives up on it (as name-records.ts does: what answered is kept).
    const slow = namesContext(t.db, {
      clock,
      networkRecords: {
        records: (_name, options) =>
          new Promise((resolve) => options?.signal?.addEventListener('abort', () => resolve([{ bytes: late, source: ROUTING_SOURCE }]))),
      },
    });
    const started = Date.now();
    await lookElsewhere(slow, parsed, row, 50);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await conflictOf(slow.store, row)).toMatchObject({ seq: 7 });
    expect(PUBLISH_CHECK_TIMEOUT_MS).toBeLessThan(NAME_LOOKUP_TIMEOUT_MS);
  });
});
