import { createReadStream } from 'node:fs';
import { lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer, type ImportCandidate, type ImporterOptions } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import { expect } from 'vitest';
import type { CreatedAccessKey, SyncFolderView } from '../../shared/api-types.js';
import { call, type CallResult, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** Helpers of the sync integration tests: an independent reference import, polling, API calls. */

export interface Server {
  url: string;
}
export type Key = CreatedAccessKey;

export interface SyncRow {
  id: string;
  path: string;
  root: string;
  ipns_name: string;
  state: string;
  files: number;
  bytes: number;
  pending: number;
  last_synced_at: number;
  error: string;
  current_file: string;
  unreadable: { path: string; reason: string }[];
  ignore: string[];
  created_at: number;
  history_bytes: number;
}

/** The contract profile (section 5), with directories as Kubo shards them. */
const IMPORTER_OPTIONS = {
  cidVersion: 1 as const,
  rawLeaves: true,
  reduceSingleLeafToSelf: true,
  chunker: fixedSize({ chunkSize: 1024 * 1024 }),
  layout: balanced({ maxChildrenPerNode: 1024 }),
  shardSplitThresholdBytes: 262_144,
};

/**
 * The root ipfs-unixfs-importer gives the folder's content, independently of Pinfold: every regular
 * file and folder, minus what `skip` names (relative `/` paths; ignored or unreadable ones). Symlinks
 * and other non-regular files are never content. `options`: the importer's layout (default the contract's).
 */
export async function referenceRoot(
  folder: string,
  skip: (rel: string) => boolean = () => false,
  options: ImporterOptions = IMPORTER_OPTIONS,
): Promise<string> {
  const candidates: ImportCandidate[] = [{ path: 'root' }];
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(path.join(folder, ...rel.split('/').filter(Boolean)))).sort();
    for (const name of names) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (skip(child)) continue;
      const abs = path.join(folder, ...child.split('/'));
      const info = await lstat(abs);
      if (info.isDirectory()) {
        candidates.push({ path: `root/${child}` });
        await walk(child);
      } else if (info.isFile()) candidates.push({ path: `root/${child}`, content: createReadStream(abs) });
    }
  };
  await walk('');
  let root: string | undefined;
  for await (const entry of importer(candidates, new MemoryBlockstore(), options)) {
    if (entry.path === 'root') root = entry.cid.toString();
  }
  if (!root) throw new Error('importer gave no root');
  return root;
}

export async function syncAdd(
  server: Server,
  key: Key,
  body: unknown,
): Promise<CallResult<{ code: number; msg: string; data: { id: string; path: string; root: string; ipns_name: string } }>> {
  return call(server, 'POST', '/api/v0/sync/add', { key, body });
}

export async function syncList(server: Server, key: Key): Promise<SyncRow[]> {
  const response = await call<{ code: number; data: SyncRow[]; total: number }>(server, 'GET', '/api/v0/sync', { key });
  if (response.status !== 200) throw new Error(`sync list failed: ${response.status} ${response.text}`);
  expect(response.json.total).toBe(response.json.data.length);
  return response.json.data;
}

export async function syncRow(server: Server, key: Key, id: string): Promise<SyncRow> {
  const row = (await syncList(server, key)).find((r) => r.id === id);
  if (!row) throw new Error(`sync folder ${id} not listed`);
  return row;
}

/** The folder as `GET /api/v0/sync` lists it to the server's owner, in the API's own type. */
export async function listed(server: TestServer, id: string): Promise<SyncFolderView> {
  const response = await call<{ data: SyncFolderView[] }>(server, 'GET', '/api/v0/sync', { key: server.owner });
  const row = response.json.data.find((candidate) => candidate.id === id);
  if (row === undefined) throw new Error(`sync folder ${id} not listed`);
  return row;
}

/** The root the gateway serves for `/ipns/<name>` (first of X-Ipfs-Roots). */
export async function ipnsRoot(server: Server, key: Key, name: string): Promise<string> {
  const response = await fetch(`${server.url}/ipns/${name}/?ts=${Math.floor(Date.now() / 1000)}`, {
    method: 'HEAD',
    headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
  });
  if (response.status !== 200) throw new Error(`HEAD /ipns/${name}: ${response.status}`);
  return (response.headers.get('x-ipfs-roots') ?? '').split(',')[0] ?? '';
}

/**
 * Waits until the folder's state is idle with the reference root both stored and served by its
 * IPNS name; returns that root.
 */
export async function converged(
  server: Server,
  key: Key,
  id: string,
  folder: string,
  skip?: (rel: string) => boolean,
  options?: ImporterOptions,
): Promise<string> {
  let expected = '';
  let seen = '';
  try {
    return await until(
      'sync to converge',
      async () => {
        expected = await referenceRoot(folder, skip, options);
        const row = await syncRow(server, key, id);
        seen = `${row.state} ${row.root} pending=${row.pending} error=${row.error}`;
        if (row.root !== expected || row.state !== 'idle' || row.pending !== 0) return undefined;
        if (row.ipns_name !== '' && (await ipnsRoot(server, key, row.ipns_name)) !== expected) return undefined;
        return expected;
      },
      30_000,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message} (expected ${expected}, last seen ${seen})`, { cause: error });
  }
}

export async function put(folder: string, rel: string, content: string | Uint8Array): Promise<void> {
  const abs = path.join(folder, ...rel.split('/'));
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, content);
}
