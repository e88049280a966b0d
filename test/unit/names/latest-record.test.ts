import { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/base/logger.js';
import type { NamesContext } from '../../../main/names/context.js';
import { generateNameKey, nameOfKey, type NameKey } from '../../../main/names/keys.js';
import { latestRecord, type LatestRecordDeps } from '../../../main/names/latest-record.js';
import { tryParseIpnsName, type IpnsName } from '../../../main/names/name-parse.js';
import { signRecord } from '../../../main/names/records.js';
import { resolveName } from '../../../main/names/resolver.js';
import { createName, publishName } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';
import { manualClock } from '../../helpers/manual-clock.js';
import { forged } from '../../helpers/ipns-fakes.js';

const CID_A = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');
const CID_B = CID.parse('bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
const CID_C = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');
const HOUR_MS = 60 * 60_000;

let t: TestDb;
let clock: ReturnType<typeof manualClock>;
let ctx: NamesContext;
let key: NameKey;
let name: IpnsName;
let answers: Uint8Array[];
let asked: { name: string; sources: readonly string[] | undefined }[];
let forgotten: string[];
let deps: LatestRecordDeps;

const sign = (cid: CID, seq: number): Promise<Uint8Array> => signRecord(key, cid, seq, clock.nowMs(), HOUR_MS);

beforeEach(async () => {
  t = tempDb();
  clock = manualClock(Math.ceil(Date.now() / 1000) * 1000);
  answers = [];
  asked = [];
  forgotten = [];
  const network = {
    async records(cid: CID, options: { sources?: readonly string[] } = {}) {
      asked.push({ name: cid.toString(), sources: options.sources });
      return answers.map((bytes) => ({ bytes, source: 'http://127.0.0.1:9' }));
    },
  };
  ctx = namesContext(t.db, { clock, networkRecords: network });
  deps = { names: ctx.store.names, nameLock: ctx.nameLock, clock, network, forget: (n) => forgotten.push(n), logger: createLogger('silent') };
  key = await generateNameKey();
  name = tryParseIpnsName(nameOfKey(key)) as IpnsName;
});
afterEach(() => t.cleanup());

describe('latestRecord: the newest verified record of a followed name (issue 24)', () => {
  it('asks the network afresh each time with the given sources, takes the highest sequence, keeps it and drops the cached one', async () => {
    answers = [await sign(CID_A, 1), await sign(CID_B, 3), await sign(CID_C, 2)];
    const { record: best, networkAnswers } = await latestRecord(deps, name, { sources: ['http://127.0.0.1:9'] });
    expect(networkAnswers).toBe(3);
    expect(best?.sequence).toBe(3n);
    expect(best?.value).toBe(`/ipfs/${CID_B.toString()}`);
    expect(asked).toEqual([{ name: expect.any(String), sources: ['http://127.0.0.1:9'] }]);
    expect(forgotten).toEqual([name.name]);
    // Kept: the resolver serves it even with the network silent now.
    answers = [];
    expect((await resolveName(ctx, name.name)).cid.toString()).toBe(CID_B.toString());
    // Asked again, not cached: a newer record is found at once.
    answers = [await sign(CID_C, 4)];
    const asks = asked.length;
    expect((await latestRecord(deps, name)).record?.sequence).toBe(4n);
    expect(asked).toHaveLength(asks + 1);
  });

  it('never goes back below the record kept, refuses forged and foreign records, and weighs pushed candidates', async () => {
    answers = [await sign(CID_A, 5)];
    await latestRecord(deps, name);
    const other = await generateNameKey();
    answers = [await sign(CID_B, 2), forged(await sign(CID_C, 9)), await signRecord(other, CID_C, 10, clock.nowMs(), HOUR_MS)];
    expect(await latestRecord(deps, name)).toMatchObject({ record: { sequence: 5n }, networkAnswers: 3 });
    expect(await latestRecord(deps, name, { candidates: [await sign(CID_C, 6)], offline: true })).toMatchObject({
      record: { sequence: 6n },
      networkAnswers: 0,
    });
    expect(asked).toHaveLength(2);
  });

  it('answers undefined when nobody has a record, and the own record of a name held here', async () => {
    expect(await latestRecord(deps, name)).toEqual({ record: undefined, networkAnswers: 0 });
    const account = addAccount(t.db);
    const held = await createName(ctx, account, CID_A.toString());
    await publishName(ctx, account, held.name, CID_B.toString());
    const heldName = tryParseIpnsName(held.name) as IpnsName;
    const { record } = await latestRecord(deps, heldName, { offline: true });
    expect(record?.sequence).toBe(1n);
    expect(record?.value).toBe(`/ipfs/${CID_B.toString()}`);
    expect(forgotten).toEqual([]);
  });
});
