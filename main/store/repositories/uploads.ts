export interface UploadReservation {
  nonce: string;
  accountId: number;
  accessKey: string;
  bytes: number;
  expiresAt: number;
}

/** Signed upload addresses: used nonces and the ingress they reserve. */
export interface UploadsRepository {
  /** Claims a nonce once: false when it was used before (a replay). Expired rows are swept on the way. */
  claimUploadNonce(nonce: string, expiresAt: number, now: number): Promise<boolean>;
  insertUploadReservation(reservation: UploadReservation): Promise<void>;
  /** Bytes the account's unexpired upload addresses hold back (an address is good through its `expires_at` second). */
  reservedUploadBytes(accountId: number, now: number): Promise<number>;
  /** Drops one reservation; false when there was none (settled before, or swept after expiry). */
  deleteUploadReservation(nonce: string): Promise<boolean>;
  /** Drops the reservations of addresses that expired unused. */
  sweepUploadReservations(now: number): Promise<void>;
  /** Drops the reservations of the addresses one access key asked for (the key is being deleted). */
  deleteUploadReservationsOfKey(accessKey: string): Promise<void>;
}
