import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { isVerifiableCid } from '../base/hashes.js';

/**
 * 400 naming the parameter unless Pinfold can verify blocks under `cid` (contract section 6): a pin on a
 * CID whose block can never be stored would wait for it in vain.
 */
export function requireVerifiableCid(cid: CID, parameter: string): void {
  if (isVerifiableCid(cid)) return;
  const { code, digest } = cid.multihash;
  throw new BadInputError(
    `${parameter}: ${cid.toString()} uses multihash function 0x${code.toString(16)} with a ${digest.byteLength}-byte digest, which Pinfold cannot verify`,
  );
}
