import { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';

/** A CID from a request parameter; anything unparsable is 400 naming the parameter. */
export function parseCidParam(text: unknown, parameter: string): CID {
  if (typeof text !== 'string' || text === '') throw new BadInputError(`${parameter} is required (a CID)`);
  if (text.length > 512) throw new BadInputError(`${parameter} is not a valid CID`);
  try {
    return CID.parse(text);
  } catch {
    throw new BadInputError(`${parameter} is not a valid CID: ${text.slice(0, 100)}`);
  }
}
