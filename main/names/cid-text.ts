import { bases } from 'multiformats/basics';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import type { MultibaseDecoder } from 'multiformats/bases/interface';
import { BadInputError } from '../base/errors.js';

const byPrefix = new Map<string, MultibaseDecoder<string>>(
  Object.values(bases).map((base) => [base.prefix as string, base.decoder as MultibaseDecoder<string>]),
);

/** Every multibase the multiformats basics know, so `k51...`, `bafy...`, `z...` and `f01...` all parse. */
const anyBase: MultibaseDecoder<string> = {
  decode(text) {
    const decoder = byPrefix.get(text.charAt(0));
    if (decoder === undefined) throw new Error(`unknown multibase prefix ${text.charAt(0)}`);
    return decoder.decode(text);
  },
};

/** Longest CID text we take; guards the decoders against absurd input. */
const MAX_CID_TEXT = 512;

/** Parses CID text in any multibase (CIDv0 as base58btc `Qm...`); undefined when it is not a CID. */
export function tryParseCid(text: string): CID | undefined {
  if (text.length === 0 || text.length > MAX_CID_TEXT) return undefined;
  try {
    if (text.startsWith('Qm') && text.length === 46) return CID.parse(text, base58btc);
    return CID.parse(text, anyBase);
  } catch {
    return undefined;
  }
}

/** A CID the caller sends; `param` names the parameter in the 400 message. */
export function parseCidParam(value: unknown, param: string): CID {
  if (typeof value !== 'string' || value.trim() === '') throw new BadInputError(`${param} is required and must be a CID`);
  const cid = tryParseCid(value.trim());
  if (cid === undefined) throw new BadInputError(`${param} is not a valid CID`);
  return cid;
}
