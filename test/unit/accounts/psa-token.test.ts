import { describe, expect, it } from 'vitest';
import { parsePsaToken, psaTokenOf, withPsaToken } from '../../../main/accounts/psa-token.js';

const KEY = { access_key: '0b5c5d3e-8d57-4c2f-9a61-2f1b8f0c6e11', access_secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v' };

describe('PSA tokens (contract section 11)', () => {
  it('joins a key and its secret with a dot, and splits them at the first dot', () => {
    const token = psaTokenOf(KEY);
    expect(token).toBe(`${KEY.access_key}.${KEY.access_secret}`);
    expect(parsePsaToken(token)).toEqual(KEY);
    expect(withPsaToken(KEY)).toEqual({ ...KEY, psa_token: token });
  });

  it('is no token without both halves', () => {
    for (const text of ['', 'nodot', '.secret', 'key.', '.']) expect(parsePsaToken(text), text).toBeNull();
    expect(parsePsaToken('a.b.c')).toEqual({ access_key: 'a', access_secret: 'b.c' });
  });
});
