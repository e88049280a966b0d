import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadReservation, UploadsRepository } from '../../../main/store/repositories/uploads.js';
import { UniqueViolation } from '../../../main/store/repositories/index.js';
import { insertTestAccount } from '../../helpers/account-rows.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('UploadsRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let uploads: UploadsRepository;
  let accountId: number;
  let otherId: number;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    uploads = repository(database, 'uploads');
    accountId = await insertTestAccount(database, { uuid: 'a' });
    otherId = await insertTestAccount(database, { uuid: 'b' });
  });
  afterEach(() => database.close());

  function reservation(nonce: string, overrides: Partial<UploadReservation> = {}): UploadReservation {
    return { nonce, accountId, accessKey: 'key-1', bytes: 100, expiresAt: 1000, ...overrides };
  }

  it('claims a nonce once: a replay is refused until the claim has expired and been swept', async () => {
    expect(await uploads.claimUploadNonce('n1', 1000, 900)).toBe(true);
    expect(await uploads.claimUploadNonce('n1', 1000, 900)).toBe(false);
    expect(await uploads.claimUploadNonce('n1', 2000, 1000)).toBe(false);
    expect(await uploads.claimUploadNonce('n2', 1000, 1000)).toBe(true);
    // Past n1's expiry the claim is swept on the way, so the nonce claims again (the signature has expired by then).
    expect(await uploads.claimUploadNonce('n1', 3000, 1001)).toBe(true);
    expect(await uploads.claimUploadNonce('n1', 3000, 1001)).toBe(false);
  });

  it('lets exactly one of concurrent claims of one nonce win', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => uploads.claimUploadNonce('same', 1000, 900)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it("sums an account's unexpired reservations, good through their expiry second", async () => {
    expect(await uploads.reservedUploadBytes(accountId, 0)).toBe(0);
    await uploads.insertUploadReservation(reservation('r1', { bytes: 2 ** 40, expiresAt: 1000 }));
    await uploads.insertUploadReservation(reservation('r2', { bytes: 5, expiresAt: 2000 }));
    await uploads.insertUploadReservation(reservation('r3', { bytes: 7, accountId: otherId }));
    expect(await uploads.reservedUploadBytes(accountId, 1000)).toBe(2 ** 40 + 5);
    expect(await uploads.reservedUploadBytes(accountId, 1001)).toBe(5);
    expect(await uploads.reservedUploadBytes(accountId, 2001)).toBe(0);
    expect(await uploads.reservedUploadBytes(otherId, 0)).toBe(7);
  });

  it('refuses a second reservation of one nonce (UniqueViolation)', async () => {
    await uploads.insertUploadReservation(reservation('r1'));
    await expect(uploads.insertUploadReservation(reservation('r1', { bytes: 1 }))).rejects.toBeInstanceOf(UniqueViolation);
    expect(await uploads.reservedUploadBytes(accountId, 0)).toBe(100);
  });

  it('deletes one reservation: true once, then false; false for one never made', async () => {
    await uploads.insertUploadReservation(reservation('r1'));
    expect(await uploads.deleteUploadReservation('r1')).toBe(true);
    expect(await uploads.deleteUploadReservation('r1')).toBe(false);
    expect(await uploads.deleteUploadReservation('never')).toBe(false);
    expect(await uploads.reservedUploadBytes(accountId, 0)).toBe(0);
  });

  it('sweeps the expired reservations only, and those of one access key', async () => {
    await uploads.insertUploadReservation(reservation('old', { expiresAt: 99, bytes: 1 }));
    await uploads.insertUploadReservation(reservation('edge', { expiresAt: 100, bytes: 2 }));
    await uploads.insertUploadReservation(reservation('new', { expiresAt: 500, bytes: 4, accessKey: 'key-2' }));
    await uploads.insertUploadReservation(reservation('other', { expiresAt: 500, bytes: 8, accessKey: 'key-2', accountId: otherId }));
    await uploads.sweepUploadReservations(100);
    expect(await uploads.deleteUploadReservation('old')).toBe(false);
    expect(await uploads.reservedUploadBytes(accountId, 0)).toBe(6);
    await uploads.deleteUploadReservationsOfKey('key-1');
    expect(await uploads.reservedUploadBytes(accountId, 0)).toBe(4);
    await uploads.deleteUploadReservationsOfKey('key-2');
    expect(await uploads.reservedUploadBytes(accountId, 0)).toBe(0);
    expect(await uploads.reservedUploadBytes(otherId, 0)).toBe(0);
    await uploads.deleteUploadReservationsOfKey('no-such-key');
  });
});
