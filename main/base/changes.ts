/**
 * A change one instance made that another may hold in memory, when several instances share one database
 * (`--db`): `access-key` (deleted: evict it from the key cache), `ipns-name` (published or removed:
 * forget the resolver's cached record), `account` and `usage` (a row changed: the database itself
 * announces these, by trigger, and the store drops its copy). The key is the access key id, the canonical
 * IPNS name, or the account id.
 */
export interface Change {
  kind: 'access-key' | 'ipns-name' | 'account' | 'usage';
  key: string;
}

export const CHANGE_KINDS: readonly Change['kind'][] = ['access-key', 'ipns-name', 'account', 'usage'];

/** Where a domain announces a change after its transaction commits; absent with one instance (SQLite). */
export interface ChangePublisher {
  published(change: Change): void;
}

/** The payload as it travels (JSON `{kind, key}`), or null when it is not one of ours. */
export function parseChange(payload: string | undefined): Change | null {
  if (payload === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { kind, key } = value as Record<string, unknown>;
  const known = CHANGE_KINDS.find((name) => name === kind);
  return known !== undefined && typeof key === 'string' && key !== '' ? { kind: known, key } : null;
}
