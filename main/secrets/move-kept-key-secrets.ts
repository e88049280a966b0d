import type { KeychainEntryFactory } from './keychain-entry.js';
import { readKeySecretsFile, writeKeySecretsFile, type KeptSecretPlace, type KeySecretsFile } from './key-secrets-file.js';
import { keySecretItem, openKeySecret, sealKeySecret } from './kept-key-secrets.js';
import type { SecretsHome } from './secrets-record.js';

/**
 * The kept key secrets' part of `pinfold secrets move` (kept-key-secrets.ts), in the move's order: `stage`
 * before secrets.json switches (every secret written to its place in the new home and read back), `settle`
 * after (the old copies removed). key-secrets.json names a sealed secret's place whatever the home, so it is
 * rewritten to sealed entries before the switch (to files) or to keychain entries after it (to the keychain):
 * a crash anywhere leaves every kept secret readable.
 */
export interface KeptSecretsMove {
  /** Kept secrets moved. */
  readonly count: number;
  /** Listed but not found where the list said (removed by hand from the keychain?): dropped from the list. */
  readonly missing: readonly string[];
  /** After the record switched: removes the old copies; answers what could not be removed. */
  settle(): Promise<string[]>;
}

export interface KeptSecretsMoveInit {
  dataDir: string;
  from: SecretsHome;
  to: SecretsHome;
  masterKey: Buffer;
  entry: KeychainEntryFactory;
}

const NOTHING: KeptSecretsMove = { count: 0, missing: [], settle: async () => [] };

export async function stageKeptSecretsMove(init: KeptSecretsMoveInit): Promise<KeptSecretsMove> {
  const { dataDir, from, to, masterKey, entry } = init;
  const list = await readKeySecretsFile(dataDir);
  if (list === null || Object.keys(list.keys).length === 0) return NOTHING;

  const secrets = new Map<string, string>();
  const missing: string[] = [];
  for (const [accessKey, place] of Object.entries(list.keys)) {
    const secret = await currentSecret(from, entry, masterKey, accessKey, place);
    if (secret === null) missing.push(accessKey);
    else secrets.set(accessKey, secret);
  }

  if (to.kind === 'file') {
    const sealed: KeySecretsFile = {
      ...list,
      keys: Object.fromEntries([...secrets].map(([key, secret]) => [key, { sealed: sealKeySecret(masterKey, key, secret) }])),
    };
    await writeKeySecretsFile(dataDir, sealed);
    return {
      count: secrets.size,
      missing,
      async settle() {
        const left: string[] = [];
        for (const [accessKey, place] of Object.entries(list.keys)) {
          if (!('keychain' in place) || from.kind !== 'keychain') continue;
          try {
            await keySecretItem(from, entry, accessKey).deletePassword();
          } catch (error) {
            left.push(`kept secret of ${accessKey} in ${describe(from)} (${error instanceof Error ? error.message : String(error)})`);
          }
        }
        return left;
      },
    };
  }

  for (const [accessKey, secret] of secrets) {
    const item = keySecretItem(to, entry, accessKey);
    await item.setPassword(secret);
    if ((await item.getPassword()) !== secret)
      throw new Error(`${describe(to)} did not keep the kept secret of ${accessKey}; the secrets stay in ${describe(from)}`);
  }
  return {
    count: secrets.size,
    missing,
    async settle() {
      const keys: Record<string, KeptSecretPlace> = Object.fromEntries([...secrets.keys()].map((key) => [key, { keychain: true }]));
      try {
        await writeKeySecretsFile(dataDir, { ...list, keys });
        return [];
      } catch (error) {
        return [`sealed kept secrets in key-secrets.json (${error instanceof Error ? error.message : String(error)})`];
      }
    },
  };
}

async function currentSecret(
  home: SecretsHome,
  entry: KeychainEntryFactory,
  masterKey: Buffer,
  accessKey: string,
  place: KeptSecretPlace,
): Promise<string | null> {
  if ('sealed' in place) return openKeySecret(masterKey, accessKey, place.sealed);
  return home.kind === 'keychain' ? keySecretItem(home, entry, accessKey).getPassword() : null;
}

function describe(home: SecretsHome): string {
  return home.kind === 'file' ? 'key-secrets.json' : `the OS keychain (service "${home.service}")`;
}
