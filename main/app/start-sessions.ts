import type { AccountsContext } from '../accounts/context.js';
import { sweepExpiredSessions } from '../accounts/session-keys.js';
import { createSignInCodes, type SignInCodes } from '../accounts/sign-in-codes.js';
import { createPrivateFolder } from '../base/private-folder.js';
import { createSignInHandoffs, type SignInHandoffs } from '../http/sign-in-handoff.js';
import type { StartContext } from './start-context.js';

/** How often expired session keys are deleted (auth refuses them from their expiry second on anyway). */
const SESSION_SWEEP_MS = 5 * 60 * 1000;

export interface Sessions {
  signInCodes: SignInCodes;
  /** Sign-in pages for a browser opener (issue 22): in a folder of this process's own, gone when it stops. */
  handoffs: SignInHandoffs;
}

/**
 * Browser sessions: expired session keys swept now and every few minutes, one-time sign-in codes and the
 * pages that hand them to a browser. Requests write those pages: the HTTP server, registered after this,
 * stops taking requests before the pages' timers and folder go.
 */
export async function startSessions(start: StartContext, accounts: AccountsContext, listenUrl: () => string): Promise<Sessions> {
  const { clock, logger, stack } = start;
  await sweepExpiredSessions(accounts);
  const sweep = setInterval(() => {
    sweepExpiredSessions(accounts).catch((error: unknown) => logger.error('session sweep failed', { error }));
  }, SESSION_SWEEP_MS);
  sweep.unref();
  stack.adopt(sweep, clearInterval);
  await start.started('session-sweep');

  const signInCodes = createSignInCodes(clock);
  const folder = stack.use(createPrivateFolder({ env: start.env, prefix: 'pinfold-sign-in-' }));
  const handoffs = stack.use(createSignInHandoffs({ codes: signInCodes, folder, listenUrl, nowMs: () => clock.nowMs() }));
  await start.started('sign-in-handoffs');
  return { signInCodes, handoffs };
}
