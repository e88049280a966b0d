import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import { HandoffQuery, SignInQuery } from '../../../main/http/input/session-input.js';
import { refusalOf } from '../../helpers/request-refusal.js';

const NEXT_WORDS = 'next must be a page of the window: a path starting with one /, printable ASCII, at most 16384 characters';

describe('sign-in request schemas', () => {
  it('a handoff: next is a page of the window or nothing; session is new (the default) or shared', () => {
    expect(requestInput(HandoffQuery, {})).toEqual({ next: null, session: 'new' });
    expect(requestInput(HandoffQuery, { next: '/view?path=%2Fipfs%2Fbafy%2Fa%20b', session: 'shared' })).toEqual({
      next: '/view?path=%2Fipfs%2Fbafy%2Fa%20b',
      session: 'shared',
    });
    expect(requestInput(HandoffQuery, { next: '/', session: 'new' })).toEqual({ next: '/', session: 'new' });
    expect(requestInput(HandoffQuery, { next: `/${'a'.repeat(16_383)}` }).next).toHaveLength(16_384);
    for (const next of [
      '',
      'view',
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      '/a b',
      '/a\nb',
      '/é',
      `/${'a'.repeat(16_384)}`,
      ['/a'],
      7,
    ]) {
      expect(refusalOf(HandoffQuery, { next }), String(next).slice(0, 40)).toEqual({ msg: NEXT_WORDS, param: 'next' });
    }
    for (const session of ['', 'SHARED', 'burst', ['shared']]) {
      expect(refusalOf(HandoffQuery, { session }), String(session)).toEqual({ msg: 'session must be new or shared', param: 'session' });
    }
    expect(refusalOf(HandoffQuery, { next: 'view', session: 'burst' }).param).toBe('next');
  });

  it('a sign-in: the code is 43 base64url characters; absent or empty is required, anything else malformed', () => {
    const code = 'A'.repeat(42) + '_';
    expect(requestInput(SignInQuery, { code })).toEqual({ code });
    for (const absent of [undefined, '']) expect(refusalOf(SignInQuery, { code: absent })).toEqual({ msg: 'code is required', param: 'code' });
    for (const bad of ['short', 'A'.repeat(44), `${'A'.repeat(42)}=`, `${'A'.repeat(42)}+`, [code], [code, code]]) {
      expect(refusalOf(SignInQuery, { code: bad }), String(bad)).toEqual({ msg: 'code is malformed (43 base64url characters expected)', param: 'code' });
    }
  });
});
