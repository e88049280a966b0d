import type { UploadReservation } from '../repositories/uploads.js';
import { changed, int, row, type Queryable } from './queryable.js';

/** Signed upload addresses: the PostgreSQL side of UploadsRepository (store/db/uploads-queries.ts). */

/**
 * Claims a nonce once: false when it was used before (a replay). Expired rows are swept on the way. The
 * claim is one INSERT … ON CONFLICT DO NOTHING: of two instances claiming the same nonce at once, exactly one
 * inserts (the other waits on the unique index, then does nothing).
 */
export async function claimUploadNonce(q: Queryable, nonce: string, expiresAt: number, now: number): Promise<boolean> {
  await q.query('DELETE FROM used_upload_nonces WHERE expires_at < $1', [now]);
  return (await changed(q, 'INSERT INTO used_upload_nonces (nonce, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [nonce, expiresAt])) === 1;
}

export async function insertUploadReservation(q: Queryable, reservation: UploadReservation): Promise<void> {
  await q.query('INSERT INTO upload_reservations (nonce, account_id, access_key, bytes, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    reservation.nonce,
    reservation.accountId,
    reservation.accessKey,
    reservation.bytes,
    reservation.expiresAt,
  ]);
}

/** Bytes the account's unexpired upload addresses hold back (an address is good through its `expires_at` second). */
export async function reservedUploadBytes(q: Queryable, accountId: number, now: number): Promise<number> {
  const found = await row<{ bytes: string }>(q, 'SELECT COALESCE(SUM(bytes), 0) AS bytes FROM upload_reservations WHERE account_id = $1 AND expires_at >= $2', [
    accountId,
    now,
  ]);
  return int(found?.bytes ?? 0);
}

/** Drops one reservation; false when there was none (settled before, or swept after expiry). */
export async function deleteUploadReservation(q: Queryable, nonce: string): Promise<boolean> {
  return (await changed(q, 'DELETE FROM upload_reservations WHERE nonce = $1', [nonce])) === 1;
}

/** Drops the reservations of addresses that expired unused. */
export async function sweepUploadReservations(q: Queryable, now: number): Promise<void> {
  await q.query('DELETE FROM upload_reservations WHERE expires_at < $1', [now]);
}

/** Drops the reservations of the addresses one access key asked for (the key is being deleted). */
export async function deleteUploadReservationsOfKey(q: Queryable, accessKey: string): Promise<void> {
  await q.query('DELETE FROM upload_reservations WHERE access_key = $1', [accessKey]);
}
