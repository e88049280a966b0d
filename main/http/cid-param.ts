import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { ANY_MULTIBASE_CID, MAX_CID_TEXT, readCidText, type CidTextFault, type CidTextRules } from '../base/cid-text.js';

/**
 * Which API a CID parameter belongs to. Each takes the CID text it has always taken and answers in its own
 * words (clients and tests match on them):
 * - `standard`: the gateway, pins, DAG and folder routes: `CID.parse`'s spellings, at most 512 characters;
 * - `ipns`: the IPNS API (name/create, publish, import): any multibase, white space trimmed;
 * - `folder-body`: the fields of a folder operation's JSON body: `CID.parse`'s spellings, no length cap.
 */
export type CidParamDialect = 'standard' | 'ipns' | 'folder-body';

interface Dialect {
  rules: CidTextRules;
  message: (fault: CidTextFault, parameter: string, value: string) => string;
}

const DIALECTS: Record<CidParamDialect, Dialect> = {
  standard: {
    rules: { spelling: 'standard', trim: false, maxLength: MAX_CID_TEXT },
    message: (fault, parameter, value) =>
      fault === 'missing'
        ? `${parameter} is required (a CID)`
        : fault === 'too-long'
          ? `${parameter} is not a valid CID`
          : `${parameter} is not a valid CID: ${value.slice(0, 100)}`,
  },
  ipns: {
    rules: ANY_MULTIBASE_CID,
    message: (fault, parameter) => (fault === 'missing' ? `${parameter} is required and must be a CID` : `${parameter} is not a valid CID`),
  },
  'folder-body': {
    rules: { spelling: 'standard', trim: false, maxLength: undefined },
    message: (fault, parameter, value) => (fault === 'missing' ? `${parameter}: must be a CID string` : `${parameter}: "${value}" is not a valid CID`),
  },
};

/** A CID from a request parameter; anything else is a 400 naming the parameter, in the words of its API. */
export function parseCidParam(value: unknown, parameter: string, dialect: CidParamDialect = 'standard'): CID {
  const { rules, message } = DIALECTS[dialect];
  const read = readCidText(value, rules);
  if (read.ok) return read.cid;
  throw new BadInputError(message(read.fault, parameter, typeof value === 'string' ? value : ''));
}
