import type { FastifyReply, FastifyRequest } from 'fastify';
import { unixSeconds, type Clock } from '../base/clock.js';
import { UnauthorizedError } from '../base/errors.js';
import { loadKey } from '../accounts/access-keys.js';
import type { AccountsContext } from '../accounts/context.js';
import { releaseIngress } from '../accounts/ingress-reservations.js';
import type { CachedKey } from '../accounts/key-cache.js';
import { requireCapability } from '../accounts/permissions.js';
import { StepTwoAddressQuery } from './input/upload-input.js';
import { requestInput } from './input/request-input.js';
import { verifyUploadAddress, type UploadArgs } from './upload-address.js';
import { checkDeclaredLength } from './upload-payload.js';
import { UploadAddressCancelledError, type StepTwoOutcomes, type StepTwoRun } from './step-two-outcomes.js';

/**
 * Step 2 of an upload, around the route that does the work (contract section 4). The address alone
 * authorizes it, so it is checked first, before the route reads its path, query or body:
 * 1. onRequest ({@link verifyStepTwoAddress}): signature, method, path, expiry, and the access key that
 *    asked for it still existing with its permissions; any failure is 401 (403 for a lost permission).
 * 2. preHandler ({@link claimStepTwo}): the address is used (a replay or a cancelled address is 401), then a
 *    Content-Length that cannot match the declared size is refused before a byte is read.
 * 3. the handler, through {@link runStepTwo}, with its {@link StepTwoRun}: the commit point that decides
 *    once between a cancel and the commit; it ends the address's ingress reservation whatever happens.
 */
export interface StepTwoDeps {
  accounts: AccountsContext;
  /** HMAC key of upload addresses, kept in the data folder. */
  uploadKey: Buffer;
  clock: Clock;
  /** What became of each step 2: cancelled, or stored (step-two-outcomes.ts). */
  outcomes: StepTwoOutcomes;
}

/** Step 2 of an upload carries its signed address; any credentials sent along are ignored. */
export function isStepTwo(rawUrl: string): boolean {
  const q = rawUrl.indexOf('?');
  return q !== -1 && new URLSearchParams(rawUrl.slice(q + 1)).has('sargs');
}

const verified = new WeakMap<FastifyRequest, UploadArgs>();
const claimed = new WeakMap<FastifyRequest, StepTwoRun>();

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] as string;
}

/** An address dies with the key that asked for it, and needs what its step 1 needed. */
async function requireLiveKey(accounts: AccountsContext, args: UploadArgs): Promise<void> {
  let key: CachedKey;
  try {
    key = await loadKey(accounts, args.accessKey);
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new UnauthorizedError('upload address is no longer valid: its access key was deleted');
    throw error;
  }
  if (key.accountId !== args.account) throw new UnauthorizedError('upload address does not match its access key');
  requireCapability(key.permissions, 'write');
  if (args.pinRoots === true) requireCapability(key.permissions, 'pin');
}

export function verifyStepTwoAddress(deps: StepTwoDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!isStepTwo(request.url)) return;
    const { sargs, ssig } = requestInput(StepTwoAddressQuery, request.query);
    if (sargs === undefined || ssig === undefined) throw new UnauthorizedError('upload address needs sargs and ssig');
    const args = verifyUploadAddress(deps.uploadKey, request.method, pathOf(request), sargs, ssig, unixSeconds(deps.clock));
    await requireLiveKey(deps.accounts, args);
    verified.set(request, args);
  };
}

export function claimStepTwo(deps: StepTwoDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const args = verified.get(request);
    if (args === undefined) return;
    const claim = () => deps.accounts.store.uploads.claimUploadNonce(args.nonce, args.expires, unixSeconds(deps.clock));
    let run: StepTwoRun;
    try {
      run = await deps.outcomes.begin(args.nonce, args.expires, reply, claim);
    } catch (error) {
      // Cancelled while this request claimed it: the reservation is this request's to end.
      if (error instanceof UploadAddressCancelledError) await releaseIngress(deps.accounts, args.nonce);
      throw error;
    }
    claimed.set(request, run);
    try {
      checkDeclaredLength(request, args.size < 0 ? 0 : args.size);
    } catch (error) {
      deps.outcomes.end(args.nonce);
      await releaseIngress(deps.accounts, args.nonce);
      throw error;
    }
  };
}

/** True when the request is a verified step 2 (else it is step 1). */
export function isVerifiedStepTwo(request: FastifyRequest): boolean {
  return claimed.has(request);
}

/**
 * Runs a step 2 with its verified address and its run (whose commit point the work calls just before its
 * commit). Its ingress reservation ends with it: `run` settles it on success (the bytes received become
 * ingress); on any failure it is released and nothing counts. Its outcome is final when it returns.
 */
export async function runStepTwo<T>(deps: StepTwoDeps, request: FastifyRequest, work: (args: UploadArgs, run: StepTwoRun) => Promise<T>): Promise<T> {
  const args = verified.get(request);
  const run = claimed.get(request);
  if (args === undefined || run === undefined) throw new Error('step 2 reached without its address check; the route hooks are missing');
  try {
    return await work(args, run);
  } finally {
    deps.outcomes.end(args.nonce);
    await releaseIngress(deps.accounts, args.nonce);
  }
}
