import { join } from 'node:path';
import { generateKeyPair, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { unmarshalIPNSRecord } from 'ipns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../../main/base/logger.js';
import type { NamesContext } from '../../../main/names/context.js';
import { createName, getName, importName, publishName } from './name-requests.js';
import { parseRfc3339Ms } from '../../../main/names/records.js';
import { republishDueNames, startRepublisher } from '../../../main/names/republish.js';
import { resolveName } from '../../../main/names/resolver.js';
import { openDatabase } from '../../../main/store/db/database.js';
import { MIGRATIONS } from '../../../main/store/db/migrations/index.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';
import { manualClock } from '../../helpers/manual-clock.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { nameByName } = SQLITE_QUERIES.names;

const CID_A = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';
const CID_B = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
/**
 * A short validity (due once less than 20 of 60 minutes are left), on a clock that starts at the real time:
 * the ipns package's validator also checks the end of validity against the real clock.
 */
const LIFETIME_MS = 60 * 60_000;
const MARGIN_MS = 20 * 60_000;

let t: TestDb;
let clock: ReturnType<typeof manualClock>;
let ctx: NamesContext;
let alice: number;
let logLines: string[];
let logger: Logger;

beforeEach(() => {
  t = tempDb();
  // On a whole second, so the stored end of validity (in seconds) is the record's own.
  clock = manualClock(Math.ceil(Date.now() / 1000) * 1000);
  ctx = namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: MARGIN_MS });
  alice = addAccount(t.db);
  logLines = [];
  logger = createLogger('info', (line) => logLines.push(line));
});
afterEach(() => t.cleanup());

/** The record served for `name` now: its value, sequence and end of validity. */
async function served(name: string): Promise<{ value: string; sequence: bigint; validUntilMs: number }> {
  const record = unmarshalIPNSRecord((await resolveName(ctx, name)).record ?? new Uint8Array());
  return { value: record.value, sequence: record.sequence, validUntilMs: parseRfc3339Ms(record.validity) ?? 0 };
}

/** An Ed25519 key the user made elsewhere, as name/import takes it. */
async function userKey(): Promise<{ name: string; secret: string }> {
  const key = await generateKeyPair('Ed25519');
  const { nameFromMultihash } = await import('../../../main/names/name-parse.js');
  return { name: nameFromMultihash(key.publicKey.toMultihash().bytes), secret: Buffer.from(privateKeyToProtobuf(key)).toString('base64') };
}

describe('IPNS republishing (contract section 7, as Kubo)', () => {
  it('re-signs created, published and imported records within the margin: same value and sequence, fresh validity', async () => {
    const start = clock.nowMs();
    const created = (await createName(ctx, alice, CID_A)).name;
    const published = (await createName(ctx, alice, CID_A)).name;
    await publishName(ctx, alice, published, CID_B);
    const user = await userKey();
    await importName(ctx, alice, { name: user.name, value: CID_B, secret_key: user.secret, format: 'libp2p-protobuf-cleartext', seq: 5 });
    const publishAt = (await getName(ctx, alice, published)).publish_at;

    clock.advance(LIFETIME_MS - MARGIN_MS - 60_000);
    expect(await republishDueNames(ctx, logger)).toEqual({ republished: 0, failed: 0, nextDueMs: start + LIFETIME_MS - MARGIN_MS });
    expect((await served(created)).validUntilMs).toBe(start + LIFETIME_MS);

    clock.set(start + LIFETIME_MS - MARGIN_MS);
    const pass = await republishDueNames(ctx, logger);
    expect(pass).toEqual({ republished: 3, failed: 0, nextDueMs: clock.nowMs() + LIFETIME_MS - MARGIN_MS });
    const now = clock.nowMs();
    expect(await served(created)).toEqual({ value: `/ipfs/${CID_A}`, sequence: 0n, validUntilMs: now + LIFETIME_MS });
    expect(await served(published)).toEqual({ value: `/ipfs/${CID_B}`, sequence: 1n, validUntilMs: now + LIFETIME_MS });
    expect(await served(user.name)).toEqual({ value: `/ipfs/${CID_B}`, sequence: 5n, validUntilMs: now + LIFETIME_MS });
    // The stored row moved with the record; publish_at stays the owner's last publish.
    expect(nameByName(t.db, created)?.validUntil).toBe(Math.floor((now + LIFETIME_MS) / 1000));
    expect((await getName(ctx, alice, published)).publish_at).toBe(publishAt);

    // Past the first records' end, every name still resolves; a fresh context reads the stored records.
    clock.set(start + LIFETIME_MS + 60_000);
    for (const name of [created, published, user.name]) expect((await resolveName(ctx, name)).cid.toString()).toMatch(/^bafy|^bafk/);
    const reopened = namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: MARGIN_MS });
    expect((await resolveName(reopened, published)).value).toBe(`/ipfs/${CID_B}`);
    // The owner's next publish is still seq + 1.
    await publishName(ctx, alice, published, CID_A);
    expect((await served(published)).sequence).toBe(2n);
  });

  it('without republishing, a record is no longer served once its validity ends', async () => {
    const name = (await createName(ctx, alice, CID_A)).name;
    clock.advance(LIFETIME_MS + 1);
    await expect(resolveName(namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: MARGIN_MS }), name)).rejects.toThrow(/expired/);
  });

  it('a name whose key cannot be opened is logged and skipped; the others are republished', async () => {
    const broken = (await createName(ctx, alice, CID_A)).name;
    const fine = (await createName(ctx, alice, CID_B)).name;
    t.db.prepare('UPDATE ipns_names SET key_sealed = ? WHERE name = ?').run(Buffer.alloc(40, 1), broken);
    clock.advance(LIFETIME_MS - MARGIN_MS);
    const pass = await republishDueNames(ctx, logger);
    expect(pass).toMatchObject({ republished: 1, failed: 1 });
    expect((await served(fine)).validUntilMs).toBe(clock.nowMs() + LIFETIME_MS);
    expect(logLines.join('')).toContain(broken);
  });

  it('startRepublisher republishes at start the records that came due while no server ran', async () => {
    const name = (await createName(ctx, alice, CID_A)).name;
    clock.advance(LIFETIME_MS - 60_000);
    const republisher = startRepublisher(ctx, logger);
    try {
      await republisher.idle();
      expect((await served(name)).validUntilMs).toBe(clock.nowMs() + LIFETIME_MS);
      expect(logLines.join('')).toMatch(/IPNS records republished .*"republished":1/);
    } finally {
      await republisher.close();
    }
  });

  it('a name stored before its end of validity was tracked counts a year from its last publish', () => {
    const path = join(t.dir, 'before-validity.db');
    const before = openDatabase(path, { migrations: MIGRATIONS.filter((migration) => migration.version < 9) });
    const account = addAccount(before);
    before
      .prepare(
        `INSERT INTO ipns_names (account_id, name, alias, key_type, key_sealed, value, seq, record, created_at, publish_at)
         VALUES (?, 'k51-old', NULL, 'Ed25519', x'00', ?, 3, x'00', 1700000000, 1700000500)`,
      )
      .run(account, CID_A);
    before.close();
    const after = openDatabase(path);
    try {
      expect(nameByName(after, 'k51-old')?.validUntil).toBe(1_700_000_500 + 365 * 24 * 60 * 60);
    } finally {
      after.close();
    }
  });

  it('refuses a margin that is not at least a second below the lifetime', () => {
    expect(() => namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: LIFETIME_MS })).toThrow(/margin/);
    expect(() => namesContext(t.db, { clock, recordLifetimeMs: 1500, republishMarginMs: 1000 })).toThrow(/margin/);
    expect(() => namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: 0 })).toThrow(/margin/);
  });
});
