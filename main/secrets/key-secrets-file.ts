import { readTextIfExists } from '../base/read-if-exists.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { dataFolderPaths } from '../base/data-folder.js';

/**
 * `<data>/key-secrets.json` (0600): which access keys' secrets the desktop window keeps for this data folder,
 * and where each one is, so that `pinfold secrets move` can move them (a keychain cannot be listed):
 *
 *   {"version":1,"keys":{"<access key>":{"keychain":true},"<access key>":{"sealed":"<base64>"}},"legacyTags":["<16 hex>"]}
 *
 * - `{"keychain":true}`: an item of the folder's keychain home (secrets.json), named after its namespace
 *   (kept-key-secrets.ts); only while the home is the keychain.
 * - `{"sealed":…}`: the secret sealed under the folder's master key (AES-256-GCM, bound to its access key):
 *   when the folder keeps its secrets in files, and readable whatever the home, since the master key moves
 *   but never changes.
 * - `legacyTags`: the data-folder tags (a hash of its path) the desktop filed kept secrets under before they
 *   followed the folder, `key-secret:<tag>:<access key>`; recorded the first time the folder is opened, so
 *   those items are still found, and moved to the folder's own place, after the folder moved.
 */
export interface KeySecretsFile {
  keys: Record<string, KeptSecretPlace>;
  legacyTags: string[];
}

export type KeptSecretPlace = { keychain: true } | { sealed: string };

export class KeySecretsFileError extends Error {
  override readonly name = 'KeySecretsFileError';
  constructor(path: string, problem: string) {
    super(`${path} ${problem}; it lists the access keys whose secrets the desktop app keeps (restore it, or remove it to keep none)`);
  }
}

const ACCESS_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TAG = /^[0-9a-f]{16}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function isPlace(value: unknown): value is KeptSecretPlace {
  if (typeof value !== 'object' || value === null) return false;
  const entries = Object.entries(value);
  if (entries.length !== 1) return false;
  const [[field, content]] = entries as [[string, unknown]];
  return (field === 'keychain' && content === true) || (field === 'sealed' && typeof content === 'string' && BASE64.test(content));
}

export function parseKeySecretsFile(text: string, path: string): KeySecretsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeySecretsFileError(path, 'is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new KeySecretsFileError(path, 'is not a JSON object');
  const record = parsed as Record<string, unknown>;
  if (record.version !== 1) throw new KeySecretsFileError(path, `has version ${JSON.stringify(record.version)}, not 1 (written by a newer Pinfold?)`);
  const keys = record.keys;
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) throw new KeySecretsFileError(path, 'has no "keys" object');
  const places: Record<string, KeptSecretPlace> = {};
  for (const [accessKey, place] of Object.entries(keys)) {
    if (!ACCESS_KEY.test(accessKey) || !isPlace(place)) throw new KeySecretsFileError(path, `has a bad entry for ${JSON.stringify(accessKey)}`);
    places[accessKey] = place;
  }
  const tags = record.legacyTags ?? [];
  if (!Array.isArray(tags) || !tags.every((tag): tag is string => typeof tag === 'string' && TAG.test(tag)))
    throw new KeySecretsFileError(path, 'has bad "legacyTags"');
  return { keys: places, legacyTags: tags };
}

export function formatKeySecretsFile(file: KeySecretsFile): string {
  return `${JSON.stringify({ version: 1, keys: file.keys, legacyTags: file.legacyTags }, null, 2)}\n`;
}

/** The file, or null when the folder has none yet (no kept secret, never opened by the desktop app since). */
export async function readKeySecretsFile(dataDir: string): Promise<KeySecretsFile | null> {
  const path = dataFolderPaths(dataDir).keySecrets;
  const text = await readTextIfExists(path);
  return text === null ? null : parseKeySecretsFile(text, path);
}

/** Atomic: a crash leaves the old list or the new one. */
export async function writeKeySecretsFile(dataDir: string, file: KeySecretsFile): Promise<void> {
  await writeFileAtomic(dataFolderPaths(dataDir).keySecrets, formatKeySecretsFile(file), 0o600);
}
