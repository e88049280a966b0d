import type { FastifyInstance } from 'fastify';
import type { SessionKey, SessionsRevoked, SignInCode, SignInHandoff } from '../../../shared/api-types.js';
import type { AccountsContext } from '../../accounts/context.js';
import { createSessionBurst, createSessionKey, endSession, revokeAllSessions } from '../../accounts/session-keys.js';
import type { SignInCodes } from '../../accounts/sign-in-codes.js';
import { ForbiddenError, UnauthorizedError } from '../../base/errors.js';
import { ok } from '../envelope.js';
import { requestInput } from '../input/request-input.js';
import { HandoffQuery, SignInQuery } from '../input/session-input.js';
import { requireAuth } from '../route-access.js';
import { signInUrl, type SignInHandoffs } from '../sign-in-handoff.js';

export interface SessionRouteDeps {
  accounts: AccountsContext;
  codes: SignInCodes;
  /** Codes in pages of their own, for a browser opener (no code in a command line). */
  handoffs: SignInHandoffs;
  /** The account a redeemed code signs in: the owner. */
  ownerAccountId: number;
  /** The URL this server is reached at (as printed by `pinfold serve`), for the code's sign-in link. */
  listenUrl(): string;
}

/**
 * Sign-in without a secret (issue 12, api12.md section 2): the owner asks for a one-time code (or for
 * one in a handoff page, which `pinfold open` and the desktop app open: issue 22), a browser exchanges it
 * for a session key, and signs out by deleting that key; the owner can revoke every session at once.
 */
export function sessionRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const account = { config: { access: 'account' as const } };
  const burst = createSessionBurst(deps.accounts, deps.ownerAccountId);
  const requireOwner = (auth: ReturnType<typeof requireAuth>, what: string) => {
    if (!auth.account.isOwner) throw new ForbiddenError(`only the owner may ${what}`);
  };

  app.post('/api/v0/session/code', account, async (request) => {
    requireOwner(requireAuth(request.auth), 'ask for a sign-in code');
    const issued = deps.codes.issue();
    const answer: SignInCode = { code: issued.code, url: signInUrl(deps.listenUrl(), issued.code), expires_at: issued.expiresAt };
    return ok(answer);
  });

  app.post('/api/v0/session/handoff', account, async (request) => {
    requireOwner(requireAuth(request.auth), 'ask for a sign-in code');
    const handoff = await deps.handoffs.create(requestInput(HandoffQuery, request.query));
    const answer: SignInHandoff = { path: handoff.path, expires_at: handoff.expiresAt };
    return ok(answer);
  });

  // No credentials and no ts: the code itself is the credential, and it works once.
  app.post('/api/v0/session', { config: { access: 'public' } }, async (request) => {
    const session = deps.codes.redeem(requestInput(SignInQuery, request.query).code);
    if (session === null) throw new UnauthorizedError('sign-in code is unknown, already used or expired');
    const key: SessionKey = session === 'shared' ? await burst.take() : await createSessionKey(deps.accounts, deps.ownerAccountId);
    return ok(key);
  });

  app.delete('/api/v0/session', account, async (request) => {
    const auth = requireAuth(request.auth);
    if (auth.accessKey === null) throw new Error('sign-out reached without an access key; its access setting is wrong');
    await endSession(deps.accounts, auth.accessKey);
    return ok();
  });

  app.delete('/api/v0/session/all', account, async (request) => {
    requireOwner(requireAuth(request.auth), 'revoke browser sessions');
    const answer: SessionsRevoked = { revoked: await revokeAllSessions(deps.accounts, deps.ownerAccountId) };
    return ok(answer);
  });
}
