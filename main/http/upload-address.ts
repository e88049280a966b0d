import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../base/errors.js';

/**
 * Signed, expiring, single-use upload addresses (contract section 4). `sargs` carries the operation's
 * arguments; `ssig` is an HMAC over method, path and sargs under a server key kept in the data folder,
 * so neither the path, the method nor the arguments can be changed.
 */
export interface UploadArgs {
  /** Account the upload is charged to. */
  account: number;
  /** The access key that asked for the address: the address dies with it (contract section 4). */
  accessKey: string;
  method: string;
  /** The request path as sent in step 1 (percent-encoded). */
  path: string;
  /** Declared payload size in bytes; -1 for operations without a payload (DAG remove). */
  size: number;
  /** Unix seconds after which the address is refused. */
  expires: number;
  nonce: string;
  /** Pin the roots of a CAR import. */
  pinRoots?: boolean;
}

export const UPLOAD_ADDRESS_LIFETIME_SECONDS = 600;

function mac(serverKey: Buffer, method: string, path: string, sargs: string): Buffer {
  return createHmac('sha256', serverKey).update(`${method}\n${path}\n${sargs}`, 'utf8').digest();
}

/** Signs the arguments under a fresh nonce (the address's identity: single use, its ingress reservation). */
export function signUploadArgs(serverKey: Buffer, args: Omit<UploadArgs, 'nonce'>): { sargs: string; ssig: string; nonce: string } {
  const full: UploadArgs = { ...args, nonce: randomBytes(16).toString('base64url') };
  const sargs = Buffer.from(JSON.stringify(full), 'utf8').toString('base64url');
  return { sargs, ssig: mac(serverKey, args.method, args.path, sargs).toString('base64url'), nonce: full.nonce };
}

function isUploadArgs(value: unknown): value is UploadArgs {
  const v = value as Record<string, unknown> | null;
  return (
    !!v &&
    Number.isSafeInteger(v.account) &&
    typeof v.accessKey === 'string' &&
    typeof v.method === 'string' &&
    typeof v.path === 'string' &&
    Number.isSafeInteger(v.size) &&
    Number.isSafeInteger(v.expires) &&
    typeof v.nonce === 'string' &&
    (v.pinRoots === undefined || typeof v.pinRoots === 'boolean')
  );
}

/**
 * The arguments of an address, checked against its own signature (the method and path it was signed for),
 * whether or not it has expired: what a cancel of the upload (POST /api/v0/upload/cancel) needs. 401 when
 * the address was not signed by this server.
 */
export function readUploadAddress(serverKey: Buffer, sargs: string, ssig: string): UploadArgs {
  let args: unknown;
  try {
    args = JSON.parse(Buffer.from(sargs, 'base64url').toString('utf8'));
  } catch {
    throw new UnauthorizedError('upload address arguments are unreadable');
  }
  if (!isUploadArgs(args)) throw new UnauthorizedError('upload address arguments are unreadable');
  const expected = mac(serverKey, args.method, args.path, sargs);
  const given = Buffer.from(ssig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new UnauthorizedError('upload address signature does not match');
  return args;
}

/**
 * Checks a step-2 request against its address: a changed path or method, a tampered or expired
 * address is 401. Claiming the nonce (single use) is the caller's next step, once the request is
 * known to be well-formed.
 */
export function verifyUploadAddress(serverKey: Buffer, method: string, path: string, sargs: string, ssig: string, nowSeconds: number): UploadArgs {
  const expected = mac(serverKey, method, path, sargs);
  const given = Buffer.from(ssig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new UnauthorizedError('upload address signature does not match (changed path, method or arguments?)');
  let args: unknown;
  try {
    args = JSON.parse(Buffer.from(sargs, 'base64url').toString('utf8'));
  } catch {
    throw new UnauthorizedError('upload address arguments are unreadable');
  }
  if (!isUploadArgs(args) || args.method !== method || args.path !== path) throw new UnauthorizedError('upload address does not match this request');
  if (args.expires < nowSeconds) throw new UnauthorizedError('upload address has expired');
  return args;
}
