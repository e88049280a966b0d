import { describe, expect, it } from 'vitest';
import { newRunToken } from '../../../main/base/run-proof.js';
import { takeRunToken } from '../../../main/service/run-token.js';

describe('the run token the desktop starts its service with', () => {
  it('is taken out of the environment, so nothing the service starts inherits it', () => {
    const token = newRunToken();
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin', PINFOLD_RUN_TOKEN: token };
    expect(takeRunToken(env)).toBe(token);
    expect(env).toEqual({ PATH: '/usr/bin' });
  });

  it('is none for a service started by hand', () => {
    expect(takeRunToken({})).toBeUndefined();
    expect(takeRunToken({ PINFOLD_RUN_TOKEN: '' })).toBeUndefined();
  });

  it('refuses a malformed one, and takes it out all the same', () => {
    const env: NodeJS.ProcessEnv = { PINFOLD_RUN_TOKEN: 'guessable' };
    expect(() => takeRunToken(env)).toThrow('PINFOLD_RUN_TOKEN must be 43 base64url characters (32 random bytes)');
    expect(env).toEqual({});
  });
});
