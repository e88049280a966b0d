import { readFile, stat } from 'node:fs/promises';

const KEY_BYTES = 32;

/** `--master-key-file` names a file that cannot serve as the shared master key; the message says why. */
export class MasterKeyFileError extends Error {
  override readonly name = 'MasterKeyFileError';
}

/**
 * The master key shared by every instance on one PostgreSQL database, from the file `--master-key-file`
 * (or `PINFOLD_MASTER_KEY_FILE`) names: 32 bytes in base64, the format of a data folder's own
 * `master.key`, so the first instance's file can be copied (or mounted) as it is. The file must be
 * readable by its owner alone (0600 or 0400): a key others can read seals nothing.
 */
export async function readMasterKeyFile(path: string): Promise<Buffer> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
    throw new MasterKeyFileError(`the master key file ${path} ${reason}`, { cause: error });
  }
  if ((mode & 0o077) !== 0) {
    throw new MasterKeyFileError(
      `the master key file ${path} is readable by others (mode ${(mode & 0o777).toString(8)}): \`chmod 600 ${path}\` and start again`,
    );
  }
  const text = (await readFile(path, 'utf8')).trim();
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new MasterKeyFileError(`the master key file ${path} must hold ${KEY_BYTES} bytes in base64 (as a data folder's master.key does)`);
  }
  return key;
}
