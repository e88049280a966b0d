import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { CID } from 'multiformats/cid';
import { inspectNode, listDirectory, readFileContent, type ReadBlockstore } from '../../main/content/read/index.js';

/**
 * A folder or a version as one comparable record: every path (`/`-separated) with what it is. A file is
 * `file:<text>` when short, else `file:<size>:<sha-256>`; a folder `dir`; a link `link:<target>`. Two
 * trees compare equal exactly when they hold the same names with the same bytes (byte for byte and by tree).
 */
export type TreeRecord = Record<string, string>;

const SHORT = 120;

function describeBytes(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (bytes.length <= SHORT && Buffer.from(text, 'utf8').equals(bytes) && !text.includes('\0')) return `file:${text}`;
  return `file:${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The folder on the disk; `skip` leaves names out (with everything below them). */
export function folderTree(dir: string, skip: (rel: string) => boolean = () => false): TreeRecord {
  const out: TreeRecord = {};
  const visit = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (skip(child)) continue;
      const full = path.join(dir, child);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[child] = `link:${readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[child] = 'dir';
        visit(child);
      } else out[child] = describeBytes(readFileSync(full));
    }
  };
  visit('');
  return out;
}

/** The version `root` (a UnixFS directory) read from `blocks`, in the same form. */
export async function versionRecord(blocks: ReadBlockstore, root: CID): Promise<TreeRecord> {
  const out: TreeRecord = {};
  const visit = async (cid: CID, rel: string): Promise<void> => {
    const info = await inspectNode(blocks, cid);
    if (info.kind === 'file') {
      const chunks: Uint8Array[] = [];
      for await (const chunk of readFileContent(blocks, info)) chunks.push(chunk);
      out[rel] = describeBytes(Buffer.concat(chunks));
      return;
    }
    if (rel !== '') out[rel] = 'dir';
    for await (const entry of listDirectory(blocks, info)) await visit(entry.cid, rel === '' ? entry.name : `${rel}/${entry.name}`);
  };
  await visit(root, '');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
