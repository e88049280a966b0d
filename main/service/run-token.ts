import { isRunToken, RUN_TOKEN_ENV } from '../base/run-proof.js';

/**
 * The run token the desktop's main process started this process with (base/run-proof.ts), taken out of
 * the environment at once so that nothing this process starts inherits it. None: a service started by
 * hand, which answers no proofs.
 */
export function takeRunToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env[RUN_TOKEN_ENV];
  delete env[RUN_TOKEN_ENV];
  if (token === undefined || token === '') return undefined;
  if (!isRunToken(token)) throw new Error(`${RUN_TOKEN_ENV} must be 43 base64url characters (32 random bytes)`);
  return token;
}
