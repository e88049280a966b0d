export interface AccessKeyRow {
  accessKey: string;
  accountId: number;
  name: string;
  permissions: string[];
  secretSealed: Buffer;
  createdAt: number;
  /** Unix second a session key stops working; null for an ordinary key (migration 11). */
  expiresAt: number | null;
}

/** Access keys (their secrets sealed) and session keys. */
export interface AccessKeysRepository {
  insertAccessKey(key: AccessKeyRow): Promise<void>;
  accessKeyById(accessKey: string): Promise<AccessKeyRow | null>;
  accessKeyByName(accountId: number, name: string): Promise<AccessKeyRow | null>;
  accessKeysOf(accountId: number): Promise<AccessKeyRow[]>;
  deleteAccessKey(accessKey: string): Promise<void>;
  /** Session keys whose expiry has come (on the partial index of migration 11). */
  expiredSessionKeys(nowSeconds: number): Promise<AccessKeyRow[]>;
}
