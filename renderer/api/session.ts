import { is } from 'valibot';
import type { SessionKey, SessionsRevoked, SignInCode } from '../../shared/api-types.js';
import { SessionKeySchema, SessionsRevokedSchema, SignInCodeSchema } from '../../shared/schemas/session.js';
import type { ApiCore } from './core.js';

/** Sign-in without a secret (api12 section 2). */
export interface SessionApi {
  /** POST /api/v0/session?code=: exchanges a one-time sign-in code for a session key (no key, no ts). */
  redeem(code: string, signal?: AbortSignal): Promise<SessionKey>;
  /** DELETE /api/v0/session: deletes the session key the client is bound to (signing out). */
  end(signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/session/code (owner): a fresh one-time sign-in link. */
  createCode(signal?: AbortSignal): Promise<SignInCode>;
  /** DELETE /api/v0/session/all (owner): revokes every browser session of the account; answers how many. */
  revokeAll(signal?: AbortSignal): Promise<SessionsRevoked>;
}

export function sessionApi(core: ApiCore): SessionApi {
  return {
    redeem: (code, signal) => core.data({ method: 'POST', path: '/api/v0/session', keyless: true, signal, query: { code } }, isSessionKey, 'the session key'),
    end: (signal) => core.empty({ method: 'DELETE', path: '/api/v0/session', signal }),
    createCode: (signal) => core.data({ method: 'POST', path: '/api/v0/session/code', signal }, isSignInCode, 'the sign-in code'),
    revokeAll: (signal) => core.data({ method: 'DELETE', path: '/api/v0/session/all', signal }, isSessionsRevoked, 'the revoked sessions'),
  };
}

export const isSessionKey = (value: unknown): value is SessionKey => is(SessionKeySchema, value);
export const isSignInCode = (value: unknown): value is SignInCode => is(SignInCodeSchema, value);
export const isSessionsRevoked = (value: unknown): value is SessionsRevoked => is(SessionsRevokedSchema, value);
