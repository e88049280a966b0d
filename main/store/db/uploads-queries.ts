import { stmt, type Db } from './database.js';

/** Claims a nonce once: false when it was used before (a replay). Expired rows are swept on the way. */
export function claimUploadNonce(db: Db, nonce: string, expiresAt: number, now: number): boolean {
  stmt(db, 'DELETE FROM used_upload_nonces WHERE expires_at < ?').run(now);
  return stmt(db, 'INSERT OR IGNORE INTO used_upload_nonces (nonce, expires_at) VALUES (?, ?)').run(nonce, expiresAt).changes === 1;
}
