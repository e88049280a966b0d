import { DataFolderLockedError } from '../base/lock-file.js';
import { dataDirFlag, UsageError, type ParsedArgs } from './args.js';
import { keychainService, osKeychainEntry } from '../secrets/keychain-entry.js';
import { moveSecrets } from '../secrets/move-secrets.js';
import { describeHome, readSecretsRecord } from '../secrets/secrets-record.js';
import { readKeySecretsFile } from '../secrets/key-secrets-file.js';

/**
 * `pinfold secrets where|move --to keychain|file [--data DIR]`: where a data folder keeps its master key,
 * owner key and the key secrets the desktop window keeps (secrets.json, key-secrets.json), and moving them. A move needs the folder to itself: it is refused while
 * `pinfold serve` or the desktop app runs on it.
 */
export async function secretsCommand(args: ParsedArgs): Promise<number> {
  const [sub, ...rest] = args.positional;
  if (sub !== 'move' && sub !== 'where') throw new UsageError(`unknown secrets command ${sub ?? ''}`.trim());
  if (rest.length > 0) throw new UsageError(`secrets ${sub} takes no arguments, got ${rest.join(' ')}`);
  const dataDir = dataDirFlag(args);

  if (sub === 'where') {
    const home = await readSecretsRecord(dataDir);
    if (home === null) {
      process.stdout.write(`${dataDir} has no secrets.json yet (its next start records where its keys are)\n`);
      return 0;
    }
    const kept = Object.values((await readKeySecretsFile(dataDir))?.keys ?? {});
    const sealed = kept.filter((place) => 'sealed' in place).length;
    const lines = [describeHome(home, dataDir)];
    if (kept.length > sealed)
      lines.push(`${kept.length - sealed} key secret(s) the desktop app keeps, in the same keychain (items "…key-secret:<access key>")`);
    if (sealed > 0) lines.push(`${sealed} key secret(s) the desktop app keeps, sealed under the master key in key-secrets.json`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  const to = args.flags.get('to');
  if (to?.length !== 1 || (to[0] !== 'keychain' && to[0] !== 'file')) throw new UsageError('secrets move needs --to keychain or --to file');
  try {
    const result = await moveSecrets({ dataDir, to: to[0], keychain: { service: keychainService(), entry: osKeychainEntry } });
    if (!result.moved) {
      process.stdout.write(`the secrets of ${dataDir} are already in ${result.to}\n`);
      return 0;
    }
    const kept = result.keptSecrets === 0 ? '' : ` and ${result.keptSecrets} kept key secret${result.keptSecrets === 1 ? '' : 's'}`;
    process.stdout.write(`moved the master key, the owner key${kept} of ${dataDir} from ${result.from} to ${result.to}\n`);
    for (const accessKey of result.keptMissing)
      process.stderr.write(`pinfold: the kept secret of access key ${accessKey} was not found where key-secrets.json said; it is no longer listed\n`);
    for (const line of result.leftBehind) process.stderr.write(`pinfold: could not remove the old copy of the ${line}; remove it yourself\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof DataFolderLockedError)) throw error;
    throw new Error(`${error.message.replace(/; stop it first.*$/, '')}: stop it (or quit the desktop app) before moving its secrets; nothing was moved`, {
      cause: error,
    });
  }
}
