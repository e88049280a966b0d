import { posix } from 'node:path';
import type { CID } from 'multiformats/cid';
import { BadInputError, NotAcceptableError } from '../../base/errors.js';
import type { ReadBlockstore, ReadOptions } from './blocks.js';
import { inspectNode, type NodeInfo } from './inspect-node.js';
import { listDirectory } from './list-directory.js';
import { readFileContent } from './read-file.js';

const BLOCK = 512;
const encoder = new TextEncoder();

type EntryType = 'file' | 'directory' | 'symlink';

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function writeString(target: Uint8Array, offset: number, width: number, text: string): void {
  target.set(encoder.encode(text).subarray(0, width), offset);
}

/** One PAX record: "<len> key=value\n" where len counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = encoder.encode(body).byteLength;
  let length = bodyLength + String(bodyLength).length;
  if (String(length).length !== String(bodyLength).length) length = bodyLength + String(length).length;
  return `${length}${body}`;
}

function ustarHeader(name: string, type: EntryType | 'pax', size: number, linkName = ''): Uint8Array {
  const header = new Uint8Array(BLOCK);
  writeString(header, 0, 100, name);
  writeString(header, 100, 8, octal(type === 'directory' ? 0o755 : 0o644, 8));
  writeString(header, 108, 8, octal(0, 8));
  writeString(header, 116, 8, octal(0, 8));
  writeString(header, 124, 12, octal(size, 12));
  writeString(header, 136, 12, octal(0, 12));
  header.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  const typeFlag = { file: '0', directory: '5', symlink: '2', pax: 'x' }[type];
  writeString(header, 156, 1, typeFlag);
  writeString(header, 157, 100, linkName);
  writeString(header, 257, 6, 'ustar\0');
  writeString(header, 263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  writeString(header, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return header;
}

const MAX_OCTAL_SIZE = 0o77777777777;

/** Header(s) for one entry: a PAX header first when the name, link or size does not fit plain ustar. */
function entryHeaders(name: string, type: EntryType, size: number, linkName = ''): Uint8Array[] {
  const records: string[] = [];
  const ascii = /^[\x20-\x7e]*$/;
  if (encoder.encode(name).byteLength > 100 || !ascii.test(name)) records.push(paxRecord('path', name));
  if (encoder.encode(linkName).byteLength > 100 || !ascii.test(linkName)) records.push(paxRecord('linkpath', linkName));
  if (size > MAX_OCTAL_SIZE) records.push(paxRecord('size', String(size)));
  const out: Uint8Array[] = [];
  if (records.length > 0) {
    const body = encoder.encode(records.join(''));
    out.push(ustarHeader('PaxHeader', 'pax', body.byteLength), body, padding(body.byteLength));
  }
  const shortName = [...name]
    .map((ch) => (ascii.test(ch) ? ch : '_'))
    .join('')
    .slice(-100);
  out.push(ustarHeader(shortName, type, type === 'file' ? Math.min(size, MAX_OCTAL_SIZE) : 0, linkName.slice(0, 100)));
  return out;
}

function padding(size: number): Uint8Array {
  const rest = size % BLOCK;
  return new Uint8Array(rest === 0 ? 0 : BLOCK - rest);
}

function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new BadInputError(`tar: entry name "${name}" cannot be archived safely`);
  }
}

/**
 * Where a directory entry lands in the archive: its name joined to the directory's path and normalised, as
 * Kubo's TAR writer does, so `directory/../file` is `file` beside `directory`. A name that normalises to a
 * path outside the archive's top entry (`../foo`) would make an extractor write outside the folder it was
 * asked to fill, and one that lands on the directory itself or a directory above it (`.`, `a/..`) would
 * overwrite it: both refused (406; format=car serves any DAG).
 */
function entryPath(top: string, directory: string, name: string, directoryCid: CID): string {
  const path = posix.normalize(`${directory}/${name}`).replace(/\/+$/, '');
  const escapes = !path.startsWith(`${top}/`) || directory === path || directory.startsWith(`${path}/`);
  if (name === '' || name.includes('\0') || escapes) {
    throw new NotAcceptableError(
      `format: tar cannot hold entry "${name}" of ${directoryCid.toString()}: it leads outside the archive's root or onto a ` +
        'directory above it (relative UnixFS paths outside the root are not allowed); format=car serves this DAG',
    );
  }
  return path;
}

/** Archive paths of a plain directory's entries (its links are in its block); throws at the first unsafe name. */
function plainDirectoryEntries(info: NodeInfo, top: string, path: string): Array<{ cid: CID; path: string }> {
  return (info.pbNode?.Links ?? []).map((link) => ({ cid: link.Hash, path: entryPath(top, path, link.Name ?? '', info.cid) }));
}

/**
 * A TAR stream (ustar + PAX for long or UTF-8 names) of the UnixFS tree at `info`, its top entry named
 * `name` (the gateway uses the CID). Directories are walked depth-first; file bytes stream block by block.
 * The names of the top directory are checked at this call, before the stream starts, so that an unsafe
 * one is refused while an error can still be answered (for HEAD too, which never starts the stream); a
 * name further down fails the stream where it is met.
 */
export function exportTar(store: ReadBlockstore, info: NodeInfo, name: string, options: ReadOptions = {}): AsyncGenerator<Uint8Array> {
  checkName(name);
  if (info.kind === 'directory') plainDirectoryEntries(info, name, name);
  return archive(store, info, name, options);
}

async function* archive(store: ReadBlockstore, info: NodeInfo, name: string, options: ReadOptions): AsyncGenerator<Uint8Array> {
  yield* tarEntry(store, info, name, name, options);
  yield new Uint8Array(BLOCK * 2);
}

async function* tarEntry(store: ReadBlockstore, info: NodeInfo, top: string, path: string, options: ReadOptions): AsyncGenerator<Uint8Array> {
  switch (info.kind) {
    case 'file': {
      yield* entryHeaders(path, 'file', info.size);
      yield* readFileContent(store, info, options);
      yield padding(info.size);
      return;
    }
    case 'symlink': {
      const target = new TextDecoder().decode(info.unixfs?.data ?? new Uint8Array(0));
      yield* entryHeaders(path, 'symlink', 0, target);
      return;
    }
    case 'directory': {
      // Every name is checked before anything of the directory is out.
      const entries = plainDirectoryEntries(info, top, path);
      yield* entryHeaders(`${path}/`, 'directory', 0);
      for (const entry of entries) {
        const child = await inspectNode(store, entry.cid, options);
        yield* tarEntry(store, child, top, entry.path, options);
      }
      return;
    }
    case 'hamt-directory': {
      // A shard's names are read block by block while the archive streams.
      yield* entryHeaders(`${path}/`, 'directory', 0);
      for await (const entry of listDirectory(store, info, options)) {
        const child = await inspectNode(store, entry.cid, options);
        yield* tarEntry(store, child, top, entryPath(top, path, entry.name, info.cid), options);
      }
      return;
    }
    default:
      throw new BadInputError(`tar: ${info.cid.toString()} is a ${info.kind} node, not UnixFS`);
  }
}
