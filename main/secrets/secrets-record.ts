import { randomUUID } from 'node:crypto';
import { readTextIfExists } from '../base/read-if-exists.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { dataFolderPaths } from '../base/data-folder.js';

/**
 * `<data>/secrets.json`: where this data folder's master key and owner key live, so that every program
 * that opens the folder (the desktop app, `pinfold serve`, the CLI) looks in the same place and none of
 * them ever makes a second key. It holds no secret, only the location:
 *
 *   {"version":1,"home":"file"}
 *   {"version":1,"home":"keychain","keychain":{"service":"Pinfold","namespace":"folder-<uuid>"}}
 *
 * `namespace` prefixes the keychain items' names so that two data folders never share one; null names
 * the desktop's items from before this record existed (`secret:master`, `owner-key`).
 */
export const SECRETS_FILE = 'secrets.json';

export type SecretsHome = { kind: 'file' } | { kind: 'keychain'; service: string; namespace: string | null };

export type SecretsHomeKind = SecretsHome['kind'];

export class SecretsRecordError extends Error {
  override readonly name = 'SecretsRecordError';
  constructor(path: string, problem: string) {
    super(`${path} ${problem}; it says where this data folder's master key lives, so Pinfold will not guess (restore it, or see docs/api.md on secrets.json)`);
  }
}

const NAMESPACE = /^[a-z0-9-]{1,64}$/;

/** A fresh keychain namespace for a data folder. */
export function newKeychainNamespace(): string {
  return `folder-${randomUUID()}`;
}

export function parseSecretsRecord(text: string, path: string): SecretsHome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SecretsRecordError(path, 'is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SecretsRecordError(path, 'is not a JSON object');
  const record = parsed as Record<string, unknown>;
  if (record.version !== 1) throw new SecretsRecordError(path, `has version ${JSON.stringify(record.version)}, not 1 (written by a newer Pinfold?)`);
  if (record.home === 'file') return { kind: 'file' };
  if (record.home !== 'keychain') throw new SecretsRecordError(path, `has home ${JSON.stringify(record.home)}, not "file" or "keychain"`);
  const keychain = record.keychain as Record<string, unknown> | undefined;
  const service = keychain?.service;
  const namespace = keychain?.namespace;
  if (typeof service !== 'string' || service === '' || service.length > 128) throw new SecretsRecordError(path, 'names no keychain service');
  if (namespace !== null && (typeof namespace !== 'string' || !NAMESPACE.test(namespace))) throw new SecretsRecordError(path, 'has a bad keychain namespace');
  return { kind: 'keychain', service, namespace };
}

export function formatSecretsRecord(home: SecretsHome): string {
  const record =
    home.kind === 'file' ? { version: 1, home: 'file' } : { version: 1, home: 'keychain', keychain: { service: home.service, namespace: home.namespace } };
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The recorded home, or null when the folder has no record yet. */
export async function readSecretsRecord(dataDir: string): Promise<SecretsHome | null> {
  const path = dataFolderPaths(dataDir).secretsRecord;
  const text = await readTextIfExists(path);
  return text === null ? null : parseSecretsRecord(text, path);
}

/** Atomic: a crash leaves the old record or the new one, never a torn file. */
export async function writeSecretsRecord(dataDir: string, home: SecretsHome): Promise<void> {
  await writeFileAtomic(dataFolderPaths(dataDir).secretsRecord, formatSecretsRecord(home), 0o600);
}

export function describeHome(home: SecretsHome, dataDir: string): string {
  if (home.kind === 'file') return `files in ${dataDir} (master.key, owner-key.json)`;
  return `the OS keychain (service "${home.service}", ${home.namespace === null ? 'items "secret:master" and "owner-key"' : `items "${home.namespace}/…"`})`;
}
