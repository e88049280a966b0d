import { describe, expect, it } from 'vitest';
import { newRunNonce } from '../../../main/base/run-proof.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { RunProofQuery } from '../../../main/http/input/run-proof-input.js';
import { refusalOf } from '../../helpers/request-refusal.js';

describe('run proof request schema', () => {
  it('takes a nonce of 43 base64url characters and refuses anything else', () => {
    const nonce = newRunNonce();
    expect(requestInput(RunProofQuery, { nonce })).toEqual({ nonce });
    for (const bad of [undefined, '', 'short', `${nonce}A`, `${nonce.slice(1)}=`, [nonce], [nonce, nonce]]) {
      expect(refusalOf(RunProofQuery, { nonce: bad }), String(bad)).toEqual({ msg: 'nonce must be 43 base64url characters (32 random bytes)', param: 'nonce' });
    }
  });
});
