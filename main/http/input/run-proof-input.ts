import { custom, object } from 'valibot';
import { isRunNonce } from '../../base/run-proof.js';
import { field } from './fields.js';

/** `GET /api/v0/service/proof?nonce=…` (the desktop app only): the nonce the proof answers. */
export const RunProofQuery = object({
  nonce: field(custom<string>(isRunNonce, 'nonce must be 43 base64url characters (32 random bytes)')),
});
