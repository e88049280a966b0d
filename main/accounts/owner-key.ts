import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../base/atomic-write.js';
import { BadInputError, ConflictError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { createAccessKey } from './access-keys.js';
import { UniqueViolation } from '../store/repositories/index.js';
import { createOwner, findOwner, isUuid, type AccountRow } from './accounts.js';
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
  /** Null on an instance of a shared database that did not make the owner key and has none of its own. */
  ownerKey: OwnerKey | null;
  /** True when this start created the key (the caller prints where it went). */
  created: boolean;
  /** Where the owner key is: this start's store, or on a shared database the instance's that made it. */
  location: string;
}

/**
 * Several instances on one database (`--db`): the owner key file belongs to the instance that made the
 * owner account. `home` names this instance's owner key place so that others can point to it (host and path).
 */
export interface SharedOwnerInit {
  home: string;
}

/** The meta row naming the owner key's home on a shared database, written with the owner account. */
const OWNER_KEY_HOME = 'owner-key-home';

/** Said by an instance that must not mint the key, when the database names no home yet (a first start racing). */
const UNRECORDED_HOME = 'the data folder of the instance that created the owner account';

/**
 * First start creates the owner account and an admin key; later starts find the key in the store. An
 * explicit key from the environment is added when missing. A lost key file is replaced by a new admin
 * key rather than locking the owner out of their own machine.
 *
 * On a shared database (`shared`), the owner account is made once, whoever starts first (the unique
 * owner index decides; the loser reads the winner's), and with it the home of its key. Only an instance
 * whose key place is that home mints an admin key (the first start, or that instance after losing its
 * key file); any other one without a valid key of its own gets none and says where the key is, so that
 * starting ten instances does not leave ten admin keys behind.
 */
export async function ensureOwner(ctx: AccountsContext, store: OwnerKeyStore, explicit: OwnerKey | null): Promise<OwnerSetup & { ownerKey: OwnerKey }>;
export async function ensureOwner(
  ctx: AccountsContext,
  store: OwnerKeyStore,
  explicit: OwnerKey | null,
  shared: SharedOwnerInit | undefined,
): Promise<OwnerSetup>;
export async function ensureOwner(ctx: AccountsContext, store: OwnerKeyStore, explicit: OwnerKey | null, shared?: SharedOwnerInit): Promise<OwnerSetup> {
  const { owner, home } = shared ? await sharedOwner(ctx, shared.home) : { owner: (await findOwner(ctx)) ?? (await createOwner(ctx)), home: null };
  if (explicit) {
    const existing = await ctx.store.keys.accessKeyById(explicit.access_key);
    if (existing && existing.accountId !== owner.id) throw new BadInputError('PINFOLD_OWNER_KEY belongs to another account');
    if (!existing) await addExplicitKey(ctx, owner.id, explicit);
    return { ownerAccountId: owner.id, ownerKey: explicit, created: !existing, location: store.description };
  }
  const stored = await store.load();
  if (stored && (await ctx.store.keys.accessKeyById(stored.access_key))?.accountId === owner.id) {
    return { ownerAccountId: owner.id, ownerKey: stored, created: false, location: store.description };
  }
  if (shared && home !== shared.home) return { ownerAccountId: owner.id, ownerKey: null, created: false, location: home ?? UNRECORDED_HOME };
  const key = await createAccessKey(ctx, owner.id, `owner-${unixSeconds(ctx.clock)}-${Math.random().toString(36).slice(2, 8)}`, ['admin']);
  await store.save(key);
  return { ownerAccountId: owner.id, ownerKey: key, created: true, location: store.description };
}

/** The owner account of a shared database and its key's recorded home, making both when there is no owner yet. */
async function sharedOwner(ctx: AccountsContext, ownHome: string): Promise<{ owner: AccountRow; home: string | null }> {
  const recordedHome = async (): Promise<string | null> => (await ctx.store.meta.metaValue(OWNER_KEY_HOME))?.toString('utf8') ?? null;
  const found = await findOwner(ctx);
  if (found) {
    const home = await recordedHome();
    if (home !== null) return { owner: found, home };
    // A database whose owner was made before homes were recorded: the first instance to come claims it.
    await ctx.store.meta.setMetaValue(OWNER_KEY_HOME, Buffer.from(ownHome, 'utf8'));
    return { owner: found, home: ownHome };
  }
  try {
    const owner = await ctx.store.transaction(async (tx) => {
      const made = await createOwner(ctx, tx);
      await tx.meta.setMetaValue(OWNER_KEY_HOME, Buffer.from(ownHome, 'utf8'));
      return made;
    });
    return { owner, home: ownHome };
  } catch (error) {
    if (!(error instanceof UniqueViolation)) throw error;
    // Another instance made the owner first (accounts_one_owner): its account and home are the ones.
    const winner = await findOwner(ctx);
    if (!winner) throw error;
    return { owner: winner, home: await recordedHome() };
  }
}

/** The environment's key; two instances adding the same one at once both end with it. */
async function addExplicitKey(ctx: AccountsContext, ownerId: number, explicit: OwnerKey): Promise<void> {
  try {
    await createAccessKey(ctx, ownerId, `owner-env-${explicit.access_key.slice(0, 8)}`, ['admin'], { explicit });
  } catch (error) {
    if (!(error instanceof ConflictError) || (await ctx.store.keys.accessKeyById(explicit.access_key))?.accountId !== ownerId) throw error;
  }
}
