import type { UploadReservation } from '../repositories/uploads.js';
import { int, type Int } from '../sql/columns.js';
import { exec, queryRow, statement, steps } from '../sql/query.js';
import { sql } from '../sql/sql.js';

/** Signed upload addresses: used nonces and the ingress they reserve (UploadsRepository). */

/**
 * Claims a nonce once: false when it was used before (a replay). Expired rows are swept on the way. The
 * claim is one INSERT … ON CONFLICT DO NOTHING: of two instances claiming the same nonce at once, exactly one
 * inserts (the other waits on the unique index, then does nothing).
 */
export const claimUploadNonce = steps(
  function* (nonce: string, expiresAt: number, now: number) {
    yield* exec(sql`DELETE FROM used_upload_nonces WHERE expires_at < ${now}`);
    return (yield* exec(sql`INSERT INTO used_upload_nonces (nonce, expires_at) VALUES (${nonce}, ${expiresAt}) ON CONFLICT DO NOTHING`)) === 1;
  },
  { atomic: false },
);

export const insertUploadReservation = statement(
  (reservation: UploadReservation) =>
    sql`INSERT INTO upload_reservations (nonce, account_id, access_key, bytes, expires_at)
        VALUES (${reservation.nonce}, ${reservation.accountId}, ${reservation.accessKey}, ${reservation.bytes}, ${reservation.expiresAt})`,
);

/** Bytes the account's unexpired upload addresses hold back (an address is good through its `expires_at` second). */
export const reservedUploadBytes = queryRow(
  (accountId: number, now: number) =>
    sql`SELECT COALESCE(SUM(bytes), 0) AS bytes FROM upload_reservations WHERE account_id = ${accountId} AND expires_at >= ${now}`,
  (raw: { bytes: Int } | undefined) => int(raw?.bytes ?? 0),
);

/** Drops one reservation; false when there was none (settled before, or swept after expiry). */
export const deleteUploadReservation = statement(
  (nonce: string) => sql`DELETE FROM upload_reservations WHERE nonce = ${nonce}`,
  (changes) => changes === 1,
);

/** Drops the reservations of addresses that expired unused. */
export const sweepUploadReservations = statement((now: number) => sql`DELETE FROM upload_reservations WHERE expires_at < ${now}`);

/** Drops the reservations of the addresses one access key asked for (the key is being deleted). */
export const deleteUploadReservationsOfKey = statement((accessKey: string) => sql`DELETE FROM upload_reservations WHERE access_key = ${accessKey}`);
