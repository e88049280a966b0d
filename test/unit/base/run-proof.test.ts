import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isRunProof, isRunToken, newRunNonce, newRunToken, runProof } from '../../../main/base/run-proof.js';

describe('the run proof', () => {
  it('is accepted for its own token and nonce only', () => {
    const token = newRunToken();
    const nonce = newRunNonce();
    const proof = runProof(token, nonce);
    expect(isRunToken(token)).toBe(true);
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isRunProof(token, nonce, proof)).toBe(true);
    // An answer seen once is worth nothing for the next nonce, nor for another run's token.
    expect(isRunProof(token, newRunNonce(), proof)).toBe(false);
    expect(isRunProof(newRunToken(), nonce, proof)).toBe(false);
  });

  it('refuses what is not a proof', () => {
    const token = newRunToken();
    const nonce = newRunNonce();
    for (const answer of [
      undefined,
      null,
      42,
      '',
      'x'.repeat(43),
      `${runProof(token, nonce)}=`,
      runProof(token, nonce).slice(1),
      { toString: () => runProof(token, nonce) },
    ]) {
      expect(isRunProof(token, nonce, answer)).toBe(false);
    }
  });

  it('fresh tokens and nonces every time', () => {
    expect(new Set(Array.from({ length: 100 }, newRunToken)).size).toBe(100);
    expect(isRunToken('short')).toBe(false);
    expect(isRunToken(`${newRunToken()}\n`)).toBe(false);
  });

  it('is HMAC-SHA256 under the token bytes of a labelled nonce', () => {
    const token = Buffer.alloc(32, 1).toString('base64url');
    const nonce = Buffer.alloc(32, 2).toString('base64url');
    const expected = createHmac('sha256', Buffer.alloc(32, 1)).update(`pinfold run proof\n${nonce}`).digest('base64url');
    expect(runProof(token, nonce)).toBe(expected);
  });
});
