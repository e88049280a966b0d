import { stmt, type Db } from './database.js';
import type { UploadReservation } from '../repositories/uploads.js';

/** Claims a nonce once: false when it was used before (a replay). Expired rows are swept on the way. */
export function claimUploadNonce(db: Db, nonce: string, expiresAt: number, now: number): boolean {
  stmt(db, 'DELETE FROM used_upload_nonces WHERE expires_at < ?').run(now);
  return stmt(db, 'INSERT OR IGNORE INTO used_upload_nonces (nonce, expires_at) VALUES (?, ?)').run(nonce, expiresAt).changes === 1;
}

export function insertUploadReservation(db: Db, reservation: UploadReservation): void {
  stmt(
    db,
    'INSERT INTO upload_reservations (nonce, account_id, access_key, bytes, expires_at) VALUES (@nonce, @accountId, @accessKey, @bytes, @expiresAt)',
  ).run(reservation);
}

/** Bytes the account's unexpired upload addresses hold back (an address is good through its `expires_at` second). */
export function reservedUploadBytes(db: Db, accountId: number, now: number): number {
  const row = stmt(db, 'SELECT COALESCE(SUM(bytes), 0) AS bytes FROM upload_reservations WHERE account_id = ? AND expires_at >= ?').get(accountId, now) as {
    bytes: number;
  };
  return row.bytes;
}

/** Drops one reservation; false when there was none (settled before, or swept after expiry). */
export function deleteUploadReservation(db: Db, nonce: string): boolean {
  return stmt(db, 'DELETE FROM upload_reservations WHERE nonce = ?').run(nonce).changes === 1;
}

/** Drops the reservations of addresses that expired unused. */
export function sweepUploadReservations(db: Db, now: number): void {
  stmt(db, 'DELETE FROM upload_reservations WHERE expires_at < ?').run(now);
}

/** Drops the reservations of the addresses one access key asked for (the key is being deleted). */
export function deleteUploadReservationsOfKey(db: Db, accessKey: string): void {
  stmt(db, 'DELETE FROM upload_reservations WHERE access_key = ?').run(accessKey);
}
