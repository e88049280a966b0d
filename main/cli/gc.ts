import { existsSync } from 'node:fs';
import { garbageCollectionCycle } from '../app/garbage-collection.js';
import { contentGcStore } from '../pins/gc-content-store.js';
import { readServerUrl, ServerFileError } from '../app/server-file.js';
import type { OwnerKey } from '../accounts/owner-key.js';
import { systemClock } from '../base/clock.js';
import { DEFAULTS } from '../base/config.js';
import { dataFolderPaths } from '../base/data-folder.js';
import { SettingsFile } from '../base/settings-file.js';
import { readSavedSettings } from '../base/settings-store.js';
import { GC_SETTINGS } from '../pins/gc-section.js';
import { acquireDataFolderLock, DataFolderLockedError, type DataFolderLock } from '../base/lock-file.js';
import { createReadWriteLock } from '../base/read-write-lock.js';
import type { GcResult } from '../pins/gc.js';
import type { PinsContext } from '../pins/context.js';
import { openBlockstore } from '../store/blockstore/blockstore.js';
import { openDatabase } from '../store/db/database.js';
import { sqliteStore } from '../store/db/sqlite-store.js';
import { dataDirFlag, UsageError, type ParsedArgs } from './args.js';
import { offlineAccounts } from './offline-accounts.js';
import { CliFailure, ownerCall, ownerKey } from './server-client.js';

/** `--gc-grace`, when given. */
function graceOf(args: ParsedArgs): number | undefined {
  const values = args.flags.get('gc-grace');
  if (!values) return undefined;
  const text = values[0] as string;
  if (values.length > 1 || !/^\d+$/.test(text)) throw new UsageError('--gc-grace must be a whole number of seconds >= 0');
  return Number(text);
}

/** One cycle through the running server's `POST /api/v0/repo/gc`, as its owner. */
async function gcThroughServer(dataDir: string, locked: DataFolderLockedError): Promise<GcResult & { via: string }> {
  let url: string;
  try {
    url = await readServerUrl(dataDir);
  } catch (error) {
    if (!(error instanceof ServerFileError)) throw error;
    throw new Error(`${locked.message}; its address is unknown (${error.message}), so it cannot be asked to collect garbage`, { cause: error });
  }
  let key: OwnerKey;
  try {
    key = await ownerKey(dataDir);
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    throw new Error(`the server at ${url} holds ${dataDir}, and ${error.message}, so it cannot be asked to collect garbage`, { cause: error });
  }
  const { status, envelope } = await ownerCall<{ pins_removed?: number; blocks_deleted?: number }>(url, key, 'POST', '/api/v0/repo/gc', {});
  if (status !== 200 || !envelope?.data) throw new Error(`the server at ${url} refused garbage collection: ${status} ${envelope?.msg ?? ''}`.trim());
  return { pinsRemoved: envelope.data.pins_removed ?? 0, blocksDeleted: envelope.data.blocks_deleted ?? 0, blocksKept: 0, via: `server at ${url}` };
}

/** The grace a cycle in this process spares: the flag's, else the data folder's saved `gc_grace_seconds`, else the default. */
async function graceInProcess(settingsPath: string, flag: number | undefined): Promise<number> {
  if (flag !== undefined) return flag;
  const saved = await readSavedSettings(new SettingsFile(settingsPath), GC_SETTINGS);
  return saved.gc_grace_seconds ?? GC_SETTINGS.gc_grace_seconds.fallback;
}

/** One cycle in this process, holding the data folder's lock so that no server starts meanwhile. */
async function gcInProcess(dataDir: string, lock: DataFolderLock, graceFlag: number | undefined): Promise<GcResult & { via: string }> {
  try {
    const paths = dataFolderPaths(dataDir);
    if (!existsSync(paths.database)) throw new Error(`${dataDir} holds no Pinfold data (no pinfold.db)`);
    const graceSeconds = await graceInProcess(paths.settings, graceFlag);
    const db = openDatabase(paths.database);
    try {
      // GC handles no secrets, so it never touches the master key (which may live in the desktop's keychain).
      const accounts = offlineAccounts(dataDir, sqliteStore(db), 'garbage collection');
      const blocks = await openBlockstore(paths.blocks, accounts.store, { clock: systemClock, exclusive: true });
      try {
        const pins: PinsContext = {
          accounts,
          content: {
            census: () => {
              throw new Error('garbage collection adds no pins');
            },
          },
          pinTimeoutSeconds: DEFAULTS.pinTimeoutSeconds,
          gcLock: createReadWriteLock(),
        };
        const result = await garbageCollectionCycle(pins, await contentGcStore(blocks), blocks, graceSeconds);
        return { ...result, via: 'in process' };
      } finally {
        await blocks.close();
      }
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
}

/**
 * `pinfold gc [--data DIR] [--gc-grace S]`: one garbage-collection cycle (contract section 6). Beside a
 * running server it asks that server (which owns the blockstore); otherwise it opens the data folder itself.
 * `--gc-grace` (else the data folder's saved grace) applies in process only: a running server uses its own.
 */
export async function gcCommand(args: ParsedArgs): Promise<number> {
  if (args.positional.length > 0) throw new UsageError(`gc takes no arguments, got ${args.positional.join(' ')}`);
  const dataDir = dataDirFlag(args);
  const grace = graceOf(args);
  if (!existsSync(dataDir)) throw new Error(`no data folder ${dataDir}`);
  let lock: DataFolderLock | null = null;
  let locked: DataFolderLockedError | null = null;
  try {
    lock = acquireDataFolderLock(dataDir);
  } catch (error) {
    if (!(error instanceof DataFolderLockedError)) throw error;
    locked = error;
  }
  const result = lock ? await gcInProcess(dataDir, lock, grace) : await gcThroughServer(dataDir, locked as DataFolderLockedError);
  process.stdout.write(`garbage collection (${result.via}): ${result.pinsRemoved} pins removed, ${result.blocksDeleted} blocks deleted\n`);
  return 0;
}
