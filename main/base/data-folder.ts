import { join } from 'node:path';

/**
 * The layout of a data folder, named once: every file Pinfold keeps in `<data>/`. The server, the
 * commands beside it (`pinfold gc`, `account`, `secrets`, `sync`, `open`) and the desktop app share one
 * folder, so they must agree on where each thing lives.
 */
export interface DataFolderPaths {
  readonly dir: string;
  /** The metadata database (accounts, pins, names, folders, sync, the block index). */
  readonly database: string;
  /** The blockstore's folder (packs of blocks). */
  readonly blocks: string;
  /** Held by the one process that owns the folder (base/lock-file.ts). */
  readonly lock: string;
  /** `{"url","pid"}` of the server while it listens (base/server-file.ts). */
  readonly serverFile: string;
  /** Where the folder's master key and owner key live (main/secrets). */
  readonly secretsRecord: string;
  /** The owner's admin key when the secrets live in files. */
  readonly ownerKey: string;
  /** Which access keys' secrets the desktop window keeps, and those sealed here when the secrets live in files (main/secrets). */
  readonly keySecrets: string;
  /** The plan catalog an operator may put in place of the built-in plans. */
  readonly plans: string;
  /** What the Settings page keeps across runs (base/settings-file.ts). */
  readonly settings: string;
  /** A 32-byte key kept as a file (`master`, `upload-signing`). */
  keyFile(name: string): string;
}

export function dataFolderPaths(dir: string): DataFolderPaths {
  return {
    dir,
    database: join(dir, 'pinfold.db'),
    blocks: join(dir, 'blocks'),
    lock: join(dir, 'pinfold.lock'),
    serverFile: join(dir, 'server.json'),
    secretsRecord: join(dir, 'secrets.json'),
    ownerKey: join(dir, 'owner-key.json'),
    keySecrets: join(dir, 'key-secrets.json'),
    plans: join(dir, 'plans.json'),
    settings: join(dir, 'settings.json'),
    keyFile: (name) => join(dir, `${name}.key`),
  };
}
