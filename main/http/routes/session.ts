import type { FastifyInstance } from 'fastify';
import type { SessionKey, SignInCode } from '../../../shared/api-types.js';
import type { AccountsContext } from '../../accounts/context.js';
import { createSessionKey, endSession } from '../../accounts/session-keys.js';
import type { SignInCodes } from '../../accounts/sign-in-codes.js';
import { ForbiddenError, UnauthorizedError } from '../../base/errors.js';
import { ok } from '../envelope.js';
import { requireAuth } from '../route-access.js';

export interface SessionRouteDeps {
  accounts: AccountsContext;
  codes: SignInCodes;
  /** The account a redeemed code signs in: the owner. */
  ownerAccountId: number;
  /** The URL this server is reached at (as printed by `pinfold serve`), for the code's sign-in link. */
  listenUrl(): string;
}

/** The link that redeems `code`: the window's sign-in page, which posts it to POST /api/v0/session. */
export function signInUrl(listenUrl: string, code: string): string {
  return `${listenUrl}/signin?code=${code}`;
}

/**
 * Sign-in without a secret (issue 12, api12.md section 2): the owner asks for a one-time code
 * (`pinfold serve` prints one, `pinfold open` asks for one), a browser exchanges it for a session key,
 * and signs out by deleting that key.
 */
export function sessionRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const account = { config: { access: 'account' as const } };

  app.post('/api/v0/session/code', account, async (request) => {
    if (!requireAuth(request.auth).account.isOwner) throw new ForbiddenError('only the owner may ask for a sign-in code');
    const issued = deps.codes.issue();
    const answer: SignInCode = { code: issued.code, url: signInUrl(deps.listenUrl(), issued.code), expires_at: issued.expiresAt };
    return ok(answer);
  });

  // No credentials and no ts: the code itself is the credential, and it works once.
  app.post('/api/v0/session', { config: { access: 'public' } }, async (request) => {
    if (!deps.codes.redeem((request.query as Record<string, unknown>).code)) throw new UnauthorizedError('sign-in code is unknown, already used or expired');
    const session: SessionKey = await createSessionKey(deps.accounts, deps.ownerAccountId);
    return ok(session);
  });

  app.delete('/api/v0/session', account, async (request) => {
    const auth = requireAuth(request.auth);
    if (auth.accessKey === null) throw new Error('sign-out reached without an access key; its access setting is wrong');
    await endSession(deps.accounts, auth.accessKey);
    return ok();
  });
}
