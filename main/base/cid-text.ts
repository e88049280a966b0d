import { bases } from 'multiformats/basics';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import type { MultibaseDecoder } from 'multiformats/bases/interface';

/**
 * The one reader of CID text. The APIs differ in what they take (the spec and contract pin each down), so the
 * difference is a stated rule, not a second parser:
 * - `standard` spelling: what `CID.parse` reads: CIDv0 `Qm...` and CIDv1 in base32 `b...`, base36 `k...` or
 *   base58btc `z...` (the gateway, pins, DAG and folder APIs);
 * - `any-multibase` spelling: also every other multibase multiformats' basics know (`f01...`, `u...`, ...),
 *   as the IPNS API takes and as IPNS record and DNSLink values may carry.
 */
export type CidSpelling = 'standard' | 'any-multibase';

export interface CidTextRules {
  spelling: CidSpelling;
  /** White space around the text is dropped first, so ' ' counts as missing (the IPNS API). */
  trim: boolean;
  /** Longer text is refused before any decoder runs; undefined: no cap (the folder operation body). */
  maxLength: number | undefined;
}

/** Why text is not a CID: absent (not a string, or empty), over the length cap, or not decodable. */
export type CidTextFault = 'missing' | 'too-long' | 'invalid';

export type CidTextResult = { ok: true; cid: CID } | { ok: false; fault: CidTextFault };

/** Longest CID text the IPNS API and the request parameters take; guards the decoders against absurd input. */
export const MAX_CID_TEXT = 512;

/** The IPNS API's and the names domain's rules (record values, DNSLink values, CIDs inside IPNS names). */
export const ANY_MULTIBASE_CID: CidTextRules = { spelling: 'any-multibase', trim: true, maxLength: MAX_CID_TEXT };

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

/** Reads `value` as CID text under `rules`, saying why when it is not one. */
export function readCidText(value: unknown, rules: CidTextRules): CidTextResult {
  if (typeof value !== 'string') return { ok: false, fault: 'missing' };
  const text = rules.trim ? value.trim() : value;
  if (text === '') return { ok: false, fault: 'missing' };
  if (rules.maxLength !== undefined && text.length > rules.maxLength) return { ok: false, fault: 'too-long' };
  try {
    return { ok: true, cid: decode(text, rules.spelling) };
  } catch {
    return { ok: false, fault: 'invalid' };
  }
}

/** CID text in any multibase (CIDv0 as base58btc `Qm...`), at most {@link MAX_CID_TEXT}; undefined when not a CID. */
export function tryParseCid(text: string): CID | undefined {
  if (text.length === 0 || text.length > MAX_CID_TEXT) return undefined;
  const read = readCidText(text, { ...ANY_MULTIBASE_CID, trim: false });
  return read.ok ? read.cid : undefined;
}

function decode(text: string, spelling: CidSpelling): CID {
  if (spelling === 'standard') return CID.parse(text);
  if (text.startsWith('Qm') && text.length === 46) return CID.parse(text, base58btc);
  return CID.parse(text, anyBase);
}
