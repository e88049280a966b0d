import { mkdirSync } from 'node:fs';
import { dataFolderPaths, type DataFolderPaths } from '../base/data-folder.js';
import { acquireDataFolderLock } from '../base/lock-file.js';
import { createSealedBox, type SealedBox } from '../base/sealed-box.js';
import { removeServerFile } from './server-file.js';
import { SettingsFile } from '../base/settings-file.js';
import { verifyMasterKey } from '../accounts/master-key-check.js';
import { cidProfile, type CidProfile } from '../content/cid-profile.js';
import { openServiceSettings, type ServiceSettings } from '../http/settings-catalog.js';
import { networkSettings, type NetworkSettings } from '../network/settings.js';
import { keychainService, osKeychainEntry } from '../secrets/keychain-entry.js';
import { openInstanceSecrets, verifySharedMasterKey, type InstanceSecrets } from './instance-secrets.js';
import { openMetadataStore, type MetadataStore } from './metadata-store.js';
import type { StartContext } from './start-context.js';

/** The data folder held, its secrets, its settings, and the metadata they open. */
export interface Storage {
  paths: DataFolderPaths;
  secrets: InstanceSecrets;
  /** settings.json under the run's flags: what each part reads live (docs/settings.md). */
  settings: ServiceSettings;
  /** The network's part of them, as the network domain reads it. */
  network: NetworkSettings;
  /** The layout of new content now (contract section 5, `cid_profile`): what the next upload, edit or sync batch uses. */
  profile: () => CidProfile;
  metadata: MetadataStore;
  box: SealedBox;
  /** Lines `pinfold serve` prints about the instances sharing a database (`--db`); this part adds the master key's. */
  sharedNotes: string[];
}

/**
 * Takes the data folder's lock, then opens its secrets and metadata. The lock is the first thing taken,
 * so the stack lets it go last: until every part has closed, no other process may open the folder.
 */
export async function openStorage(start: StartContext): Promise<Storage> {
  const { config, stack, env } = start;
  const paths = dataFolderPaths(config.dataDir);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  stack.adopt(acquireDataFolderLock(config.dataDir), (lock) => lock.release());
  // server.json (written by listen()) names the server holding the folder: it goes just before the lock,
  // once nothing of the server runs, so a command that finds it can still reach the server.
  stack.defer(() => removeServerFile(config.dataDir));
  await start.started('data-folder-lock');

  // The master key is judged against the folder's sealed check before the database is opened for writing.
  const secrets = await openInstanceSecrets({
    config,
    env,
    prefer: start.init.secrets?.prefer ?? 'file',
    keychain: start.init.secrets?.keychain ?? { service: keychainService(env), entry: osKeychainEntry },
  });
  // Read before anything is opened: a broken settings.json stops the start with a message naming it.
  const settings = await openServiceSettings(new SettingsFile(paths.settings), config);
  const network = networkSettings(settings);
  // Registered before every part that reads or writes it, so it closes after all of them.
  const metadata = stack.use(await openMetadataStore(config, paths.database));
  await start.started('metadata-store');

  const box = createSealedBox(secrets.masterKey);
  const sharedNotes: string[] = [];
  const { store, coordination } = metadata;
  if (coordination === null) await verifyMasterKey(store, box, secrets.description);
  else {
    // Under the setup lock: of two first starts, one writes the sealed check and the other is judged by it.
    const masterKeyHome = await coordination.setupLock.exclusive(() => verifySharedMasterKey(store, box, secrets));
    sharedNotes.push(`Master key of this database: ${masterKeyHome} (start other instances with --master-key-file naming a 0600 copy of it)`);
  }
  const profile = (): CidProfile => cidProfile(settings.current().cid_profile);
  return { paths, secrets, settings, network, profile, metadata, box, sharedNotes };
}
