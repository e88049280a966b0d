import type { IncomingHttpHeaders } from 'node:http';
import type { Permission } from '../../shared/api-types.js';
import { UnauthorizedError } from '../base/errors.js';
import { loadKey, secretMatches } from '../accounts/access-keys.js';
import { parsePsaToken } from '../accounts/psa-token.js';
import type { AccountsContext } from '../accounts/context.js';
import type { CachedKey } from '../accounts/key-cache.js';
import type { AccountRow } from '../store/repositories/accounts.js';
import { signatureMatches } from './signature.js';

export interface AuthContext {
  account: AccountRow;
  permissions: readonly Permission[];
  /** Null for anonymous requests let through by --public-gateway (charged to the owner). */
  accessKey: string | null;
  /** The key's expiry when it is a session key (Unix seconds), else null. */
  expiresAt: number | null;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when the request authenticates by `X-Access-Signature` (the secret, when both are sent, wins). Such
 * a signature covers one URL, so the gateway serves a peer-ID `/ipns` name in place rather than redirect
 * a client that would follow with a signature made for the first URL.
 */
export function usesSignature(headers: IncomingHttpHeaders): boolean {
  return header(headers, 'x-access-secret') === undefined && header(headers, 'x-access-signature') !== undefined;
}

/**
 * Both modes of contract section 2: `X-Access-Secret`, or `X-Access-Signature` over the request.
 * Every failure is the same 401 shape, so a caller cannot tell an unknown key from a wrong secret
 * by the message.
 */
export function authenticate(ctx: AccountsContext, method: string, rawUrl: string, headers: IncomingHttpHeaders): AuthContext | Promise<AuthContext> {
  const accessKey = header(headers, 'x-access-key');
  if (!accessKey) throw new UnauthorizedError('X-Access-Key header is required');
  const secret = header(headers, 'x-access-secret');
  const signature = header(headers, 'x-access-signature');
  if (secret === undefined && signature === undefined) throw new UnauthorizedError('X-Access-Secret or X-Access-Signature header is required');
  const presented: Presented = { method, rawUrl, secret, signature };
  // A cached key and a cached account answer without an await: this runs before every authenticated request.
  const key = loadKey(ctx, accessKey);
  if (key instanceof Promise) return key.then((loaded) => authorize(ctx, loaded, presented), sameRefusal);
  return authorize(ctx, key, presented);
}

/** Longer than any token of ours (a UUID, a dot and 64 characters of secret): refused before any lookup. */
const MAX_BEARER_TOKEN = 512;
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/**
 * The Pinning Service API's credentials (contract section 11): `Authorization: Bearer <access_key>.<access_secret>`,
 * the secret checked in constant time as `X-Access-Secret` is. The PSA has no `ts`. Every failure is one 401
 * message, as for the headers.
 */
export function authenticateBearer(ctx: AccountsContext, authorization: string | undefined): AuthContext | Promise<AuthContext> {
  if (authorization === undefined || authorization === '') throw new UnauthorizedError('Authorization: Bearer <token> header is required');
  const match = authorization.length <= MAX_BEARER_TOKEN ? BEARER.exec(authorization) : null;
  const token = match ? parsePsaToken(match[1] as string) : null;
  if (!token) throw new UnauthorizedError('invalid token');
  const presented: Presented = { method: '', rawUrl: '', secret: token.access_secret, signature: undefined };
  const key = loadKey(ctx, token.access_key);
  if (key instanceof Promise) return key.then((loaded) => authorize(ctx, loaded, presented), sameRefusal);
  return authorize(ctx, key, presented);
}

interface Presented {
  method: string;
  rawUrl: string;
  secret: string | undefined;
  signature: string | undefined;
}

function sameRefusal(error: unknown): never {
  if (error instanceof UnauthorizedError) throw new UnauthorizedError('invalid access key or secret');
  throw error;
}

function authorize(ctx: AccountsContext, key: CachedKey, presented: Presented): AuthContext | Promise<AuthContext> {
  const { secret, signature } = presented;
  const valid = secret !== undefined ? secretMatches(key, secret) : signatureMatches(key.hmacKey, presented.method, presented.rawUrl, signature ?? '');
  if (!valid) throw new UnauthorizedError('invalid access key or secret');
  const account = ctx.store.current.account(key.accountId);
  if (account === undefined) return ctx.store.accounts.accountById(key.accountId).then((row) => authContext(row, key));
  return authContext(account, key);
}

function authContext(account: AccountRow | null, key: CachedKey): AuthContext {
  if (!account) throw new UnauthorizedError('invalid access key or secret');
  return { account, permissions: key.permissions, accessKey: key.accessKey, expiresAt: key.expiresAt };
}
