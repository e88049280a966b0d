import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { rawBlock } from './raw-blocks.js';

/**
 * The directories of gateway-conformance's path_gateway_tar/inside-root.car and outside-root.car (legacy Kubo
 * sharness fixtures, ipfs/kubo#9029), rebuilt block for block: their CIDs equal the fixtures' roots, which
 * the tests check. Both hold entry names with "..": inside-root's `foobar/directory/../file` stays in the
 * archive's root, outside-root's `../foo` leaves it.
 */
export const INSIDE_ROOT = 'bafybeibfevfxlvxp5vxobr5oapczpf7resxnleb7tkqmdorc4gl5cdva3y';
export const OUTSIDE_ROOT = 'bafybeicaj7kvxpcv4neaqzwhrqqmdstu4dhrwfpknrgebq6nzcecfucvyu';
export const FILE_TEXT = 'Hello, world!\n';

export interface Block {
  cid: CID;
  bytes: Uint8Array;
}

export interface BuiltDag {
  root: CID;
  blocks: Block[];
}

const DIRECTORY_DATA = new UnixFS({ type: 'directory' }).marshal();

/** A plain UnixFS directory node over `links` (Tsize as given: the legacy fixtures leave some out). */
export async function directoryBlock(links: Array<{ name: string; cid: CID; tsize?: number }>): Promise<Block> {
  const bytes = dagPb.encode({
    Data: DIRECTORY_DATA,
    Links: links.map((link) => ({ Hash: link.cid, Name: link.name, ...(link.tsize === undefined ? {} : { Tsize: link.tsize }) })),
  });
  return { cid: CID.createV1(dagPb.code, await sha256.digest(bytes)), bytes };
}

/** `/foobar/directory/../file`: a tree whose only file lands at `<root>/foobar/file`. */
export async function insideRootDag(): Promise<BuiltDag> {
  const file = rawBlock(new TextEncoder().encode(FILE_TEXT));
  const directory = await directoryBlock([{ name: '../file', cid: file.cid, tsize: file.bytes.byteLength }]);
  const foobar = await directoryBlock([{ name: 'directory', cid: directory.cid }]);
  const root = await directoryBlock([{ name: 'foobar', cid: foobar.cid }]);
  return { root: root.cid, blocks: [root, foobar, directory, file] };
}

/** `/../foo` and `/bar`: the first entry leaves the archive's root. */
export async function outsideRootDag(): Promise<BuiltDag> {
  const file = rawBlock(new TextEncoder().encode(FILE_TEXT));
  const size = file.bytes.byteLength;
  const root = await directoryBlock([
    { name: '../foo', cid: file.cid, tsize: size },
    { name: 'bar', cid: file.cid, tsize: size },
  ]);
  return { root: root.cid, blocks: [root, file] };
}

/**
 * Not a fixture: `/z/../../escape` leaves the root one level down, so a TAR of it fails only once its first
 * entries (the root, `/ok.txt`) are out and the response headers sent.
 */
export async function deepEscapeDag(): Promise<BuiltDag> {
  const file = rawBlock(new TextEncoder().encode(FILE_TEXT));
  const size = file.bytes.byteLength;
  const inner = await directoryBlock([{ name: '../../escape', cid: file.cid, tsize: size }]);
  const root = await directoryBlock([
    { name: 'ok.txt', cid: file.cid, tsize: size },
    { name: 'z', cid: inner.cid },
  ]);
  return { root: root.cid, blocks: [root, inner, file] };
}
