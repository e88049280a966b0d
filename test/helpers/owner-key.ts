import type { OwnerKey, PinfoldApp } from '../../main/app/create-app.js';

/**
 * The app's owner key, for tests on an instance that has one (every SQLite one; the first on a shared
 * database). Null only on a later instance of a shared database: a test asking for it there is wrong.
 */
export function ownerKeyOf(app: Pick<PinfoldApp, 'ownerKey' | 'ownerKeyLocation'>): OwnerKey {
  if (app.ownerKey === null) throw new Error(`this instance holds no owner key (it is in ${app.ownerKeyLocation})`);
  return app.ownerKey;
}
