import type { Capability } from '../accounts/permissions.js';
import type { AuthContext } from './auth.js';

/**
 * How a route is reached: `public` needs nothing (plan list, the renderer's files); `upload` is step 1
 * of an upload (credentials, `ts`, `write`) or, when the query carries `sargs`, step 2, authorized by
 * its signed address alone; `gateway` is `read` unless --public-gateway lets anonymous GET/HEAD
 * through; the rest need credentials, `ts` and the capability.
 */
export type RouteAccess = Capability | 'public' | 'upload' | 'gateway';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * `bearer`: the route takes `Authorization: Bearer <token>` (the Pinning Service API), with no `ts`, in
     * place of the key headers; its access applies all the same.
     */
    credentials?: 'bearer';
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export function requireAuth(auth: AuthContext | null): AuthContext {
  if (!auth) throw new Error('route reached without authentication; its access setting is wrong');
  return auth;
}
