import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../base/atomic-write.js';
import { BadInputError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { createAccessKey } from './access-keys.js';
import { createOwner, findOwner, isUuid } from './accounts.js';
import type { AccountsContext } from './context.js';
import { dataFolderPaths } from '../base/data-folder.js';

export interface OwnerKey {
  access_key: string;
  access_secret: string;
}

/** Where the owner's admin key is handed to its user: a 0600 file (headless) or the OS keychain (desktop). */
export interface OwnerKeyStore {
  readonly description: string;
  load(): Promise<OwnerKey | null>;
  save(key: OwnerKey): Promise<void>;
}

export function fileOwnerKeyStore(dataDir: string): OwnerKeyStore {
  const path = dataFolderPaths(dataDir).ownerKey;
  return {
    description: path,
    async load() {
      try {
        const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<OwnerKey>;
        return typeof parsed.access_key === 'string' && typeof parsed.access_secret === 'string'
          ? { access_key: parsed.access_key, access_secret: parsed.access_secret }
          : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async save(key) {
      await writeFileAtomic(path, `${JSON.stringify(key, null, 2)}\n`, 0o600);
    },
  };
}

/** `PINFOLD_OWNER_KEY` + `PINFOLD_OWNER_SECRET`, when both are set (contract section 1). */
export function ownerKeyFromEnv(env: NodeJS.ProcessEnv): OwnerKey | null {
  const key = env.PINFOLD_OWNER_KEY;
  const secret = env.PINFOLD_OWNER_SECRET;
  if (!key && !secret) return null;
  if (!key || !secret) throw new BadInputError('PINFOLD_OWNER_KEY and PINFOLD_OWNER_SECRET must be set together');
  if (!isUuid(key)) throw new BadInputError('PINFOLD_OWNER_KEY must be a UUID');
  if (!/^[A-Za-z0-9_-]{43,128}$/.test(secret)) throw new BadInputError('PINFOLD_OWNER_SECRET must be base64url of at least 32 bytes');
  return { access_key: key, access_secret: secret };
}

export interface OwnerSetup {
  ownerAccountId: number;
  ownerKey: OwnerKey;
  /** True when this start created the key (the caller prints where it went). */
  created: boolean;
}

/**
 * First start creates the owner account and an admin key; later starts find the key in the store. An
 * explicit key from the environment is added when missing. A lost key file is replaced by a new admin
 * key rather than locking the owner out of their own machine.
 */
export async function ensureOwner(ctx: AccountsContext, store: OwnerKeyStore, explicit: OwnerKey | null): Promise<OwnerSetup> {
  const owner = (await findOwner(ctx)) ?? (await createOwner(ctx));
  if (explicit) {
    const existing = await ctx.store.keys.accessKeyById(explicit.access_key);
    if (existing && existing.accountId !== owner.id) throw new BadInputError('PINFOLD_OWNER_KEY belongs to another account');
    if (!existing) await createAccessKey(ctx, owner.id, `owner-env-${explicit.access_key.slice(0, 8)}`, ['admin'], { explicit });
    return { ownerAccountId: owner.id, ownerKey: explicit, created: !existing };
  }
  const stored = await store.load();
  if (stored && (await ctx.store.keys.accessKeyById(stored.access_key))?.accountId === owner.id) {
    return { ownerAccountId: owner.id, ownerKey: stored, created: false };
  }
  const key = await createAccessKey(ctx, owner.id, `owner-${unixSeconds(ctx.clock)}-${Math.random().toString(36).slice(2, 8)}`, ['admin']);
  await store.save(key);
  return { ownerAccountId: owner.id, ownerKey: key, created: true };
}
