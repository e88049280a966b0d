import type { ReadBlockstore } from './blocks.js';
import type { NodeInfo } from './inspect-node.js';
import { readFileContent } from './read-file.js';

const byExtension: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  csv: 'text/csv; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  wasm: 'application/wasm',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  car: 'application/vnd.ipld.car',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

/** Content-Type from a file name's extension, or undefined when the extension says nothing. */
export function contentTypeFromName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 && !name.startsWith('.')) return undefined;
  return byExtension[name.slice(dot + 1).toLowerCase()];
}

/** How many leading bytes sniffing looks at (as the WHATWG MIME sniffing standard). */
export const SNIFF_BYTES = 512;

const latin1 = new TextDecoder('latin1');

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

function isUtf8Text(bytes: Uint8Array, complete: boolean): boolean {
  // A sniff window may cut a multi-byte character; allow up to 3 dangling bytes at its end.
  const body = complete ? bytes : bytes.subarray(0, Math.max(bytes.byteLength - 3, 0));
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return false;
  }
  for (const byte of body) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) return false;
  }
  return true;
}

/**
 * Content-Type from the first bytes of content. `complete` says `bytes` is the whole file (JSON is only
 * recognised then, because a prefix of JSON does not parse).
 */
export function sniffContentType(bytes: Uint8Array, complete: boolean): string {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  const head = latin1
    .decode(bytes.subarray(0, SNIFF_BYTES))
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  if (/^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/.test(head)) {
    return 'text/html; charset=utf-8';
  }
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'image/svg+xml';
  if (!isUtf8Text(bytes, complete)) return 'application/octet-stream';
  if (complete && (head.startsWith('{') || head.startsWith('['))) {
    try {
      JSON.parse(new TextDecoder().decode(bytes));
      return 'application/json';
    } catch {
      // Looks like JSON but is not: plain text.
    }
  }
  return 'text/plain; charset=utf-8';
}

/**
 * Content-Type of a file: its name's extension first, then its first bytes. A first block that is not held
 * (a partial DAG) gives `application/octet-stream` rather than failing the request.
 */
export async function detectContentType(
  store: ReadBlockstore,
  info: NodeInfo,
  name: string | undefined,
  options: { signal?: AbortSignal; head?: Uint8Array } = {},
): Promise<string> {
  const fromName = name === undefined ? undefined : contentTypeFromName(name);
  if (fromName !== undefined) return fromName;
  if (info.kind === 'symlink') return 'inode/symlink';
  if (info.size === 0) return 'text/plain; charset=utf-8';
  // Content never changes under its CID, so what sniffing found is remembered.
  const key = info.cid.toString();
  const known = sniffed.get(key);
  if (known !== undefined) return known;
  const type = await sniffFile(store, info, options);
  // Leading blocks not held (a partial DAG): answer generically now, sniff again once they arrive.
  if (type === undefined) return 'application/octet-stream';
  if (sniffed.size >= MAX_SNIFFED) sniffed.delete(sniffed.keys().next().value as string);
  sniffed.set(key, type);
  return type;
}

const MAX_SNIFFED = 10_000;
const sniffed = new Map<string, string>();

async function sniffFile(store: ReadBlockstore, info: NodeInfo, options: { signal?: AbortSignal; head?: Uint8Array }): Promise<string | undefined> {
  // The caller already holds the leading bytes (a small file read whole): no second read.
  if (options.head !== undefined) return sniffContentType(options.head.subarray(0, SNIFF_BYTES), info.size <= SNIFF_BYTES);
  const window = Math.min(info.size, SNIFF_BYTES);
  const parts: Uint8Array[] = [];
  try {
    for await (const part of readFileContent(store, info, { offset: 0, length: window, signal: options.signal })) parts.push(part);
  } catch (err) {
    if (err instanceof Error && err.name === 'NotFoundError') return undefined;
    throw err;
  }
  const head = new Uint8Array(window);
  let at = 0;
  for (const part of parts) {
    head.set(part, at);
    at += part.byteLength;
  }
  return sniffContentType(head, info.size <= SNIFF_BYTES);
}
