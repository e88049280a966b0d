import { BadInputError } from '../../base/errors.js';
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
  const shortName = [...name].map((ch) => (ascii.test(ch) ? ch : '_')).join('').slice(-100);
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
 * A TAR stream (ustar + PAX for long or UTF-8 names) of the UnixFS tree at `info`, its top entry named
 * `name` (the gateway uses the CID). Directories are walked depth-first; file bytes stream block by block.
 */
export async function* exportTar(
  store: ReadBlockstore,
  info: NodeInfo,
  name: string,
  options: ReadOptions = {},
): AsyncGenerator<Uint8Array> {
  checkName(name);
  yield* tarEntry(store, info, name, options);
  yield new Uint8Array(BLOCK * 2);
}

async function* tarEntry(store: ReadBlockstore, info: NodeInfo, path: string, options: ReadOptions): AsyncGenerator<Uint8Array> {
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
    case 'directory':
    case 'hamt-directory': {
      yield* entryHeaders(`${path}/`, 'directory', 0);
      for await (const entry of listDirectory(store, info, options)) {
        checkName(entry.name);
        const child = await inspectNode(store, entry.cid, options);
        yield* tarEntry(store, child, `${path}/${entry.name}`, options);
      }
      return;
    }
    default:
      throw new BadInputError(`tar: ${info.cid.toString()} is a ${info.kind} node, not UnixFS`);
  }
}
