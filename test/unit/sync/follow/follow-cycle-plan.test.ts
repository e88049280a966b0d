import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { parseContentPath } from '../../../../main/names/content-path.js';
import type { ValidRecord } from '../../../../main/names/records.js';
import { FollowCycleError, planFollowCycle, type CycleFacts } from '../../../../main/sync/follow/follow-cycle-plan.js';

const V1 = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';
const V2 = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';

const record = (value: string, sequence: bigint): ValidRecord => ({
  name: 'k51name',
  value,
  target: parseContentPath(value)!,
  sequence,
  validUntilMs: 1e15,
  ttlSeconds: 60,
  bytes: new Uint8Array(),
});

const facts = (over: Partial<CycleFacts>): CycleFacts => ({
  rootCid: V1,
  heldSequence: 3n,
  journalRoot: undefined,
  record: undefined,
  networkAnswers: 1,
  ...over,
});

describe('what a follow cycle does with the record found', () => {
  it('nothing held and no record: refused, saying whether anyone answered', () => {
    expect(planFollowCycle(facts({ rootCid: '', networkAnswers: 0 }))).toEqual({ kind: 'refuse', noAnswer: true });
    expect(planFollowCycle(facts({ rootCid: '', networkAnswers: 2 }))).toEqual({ kind: 'refuse', noAnswer: false });
  });

  it('a newer record of another version: that version is written, then its sequence kept', () => {
    expect(planFollowCycle(facts({ record: record(`/ipfs/${V2}`, 4n) }))).toEqual({ kind: 'write', root: V2, keepSequence: 4n });
  });

  it('a newer record of the version held (a republish) moves only the sequence', () => {
    expect(planFollowCycle(facts({ record: record(`/ipfs/${V1}`, 9n) }))).toEqual({ kind: 'same', keepSequence: 9n });
  });

  it('a record no newer than the one held keeps the version held', () => {
    expect(planFollowCycle(facts({ record: record(`/ipfs/${V2}`, 3n) }))).toEqual({ kind: 'same', keepSequence: undefined });
    expect(planFollowCycle(facts({ rootCid: '', heldSequence: -1n, record: record(`/ipfs/${V2}`, -1n) }))).toEqual({ kind: 'nothing' });
  });

  it('an interrupted apply is finished, unless a newer record names another version', () => {
    expect(planFollowCycle(facts({ journalRoot: V2 }))).toEqual({ kind: 'write', root: V2, keepSequence: undefined });
    expect(planFollowCycle(facts({ journalRoot: V1, record: record(`/ipfs/${V1}`, 3n) }))).toEqual({ kind: 'write', root: V1, keepSequence: undefined });
    const cid = CID.parse(V2).toV1().toString();
    expect(planFollowCycle(facts({ journalRoot: V1, record: record(`/ipfs/${V2}`, 5n) }))).toEqual({ kind: 'write', root: cid, keepSequence: 5n });
  });

  it('a newer record that points at a path or a name is no version', () => {
    expect(() => planFollowCycle(facts({ record: record(`/ipfs/${V2}/a`, 4n) }))).toThrow(FollowCycleError);
    expect(() => planFollowCycle(facts({ record: record('/ipns/example.com', 4n) }))).toThrow("not at a folder's version");
  });
});
