import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { parseCidParam } from './cid-param.js';

export interface IpfsPath {
  cid: CID;
  /** Decoded path segments under the root. */
  segments: string[];
}

/**
 * `/ipfs/{cid}[/{path}]` from a raw request URL: segments are percent-decoded and must be real names
 * (no empty segment, `.`, `..` or NUL): contract section 5.
 */
export function parseIpfsPath(rawUrl: string): IpfsPath {
  const pathname = rawUrl.split('?')[0] as string;
  const parts = pathname.split('/').slice(2);
  const cidText = parts.shift();
  const cid = parseCidParam(cidText ? safeDecode(cidText, 'cid') : '', 'cid');
  const segments = parts.map((part, i) => {
    const name = safeDecode(part, 'path');
    if (name === '' || name === '.' || name === '..' || name.includes('\0') || name.includes('/'))
      throw new BadInputError(`path segment ${i + 1} ${JSON.stringify(name)} is not a valid name`);
    return name;
  });
  return { cid, segments };
}

function safeDecode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new BadInputError(`${what} is not valid percent-encoded UTF-8`);
  }
}

export function encodePath(segments: readonly string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}
