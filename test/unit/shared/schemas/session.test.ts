import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { SessionKey, SessionsRevoked, SignInCode } from '../../../../shared/api-types.js';
import { SessionKeySchema, SessionsRevokedSchema, SignInCodeSchema } from '../../../../shared/schemas/session.js';
import * as legacy from './legacy-guards.js';
import { REVOKED, SESSION_KEY, SIGN_IN_CODE } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('session schemas', () => {
  it('what the old guards accepted and refused', () => {
    expectGuardVerdicts(SessionKeySchema, legacy.isSessionKey, SESSION_KEY);
    expectGuardVerdicts(SignInCodeSchema, legacy.isSignInCode, SIGN_IN_CODE);
    expectGuardVerdicts(SessionsRevokedSchema, legacy.isSessionsRevoked, REVOKED);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof SessionKeySchema>>().toEqualTypeOf<SessionKey>();
    expectTypeOf<InferOutput<typeof SignInCodeSchema>>().toEqualTypeOf<SignInCode>();
    expectTypeOf<InferOutput<typeof SessionsRevokedSchema>>().toEqualTypeOf<SessionsRevoked>();
  });
});
