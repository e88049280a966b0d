import { createIPNSRecordWithExpiration, marshalIPNSRecord, multihashToIPNSRoutingKey, unmarshalIPNSRecord } from 'ipns';
import { ipnsValidator } from 'ipns/validator';
import type { CID } from 'multiformats/cid';
import { ErrorCodes } from '../../shared/error-codes.js';
import { AppError } from '../base/errors.js';
import { parseContentPath, type ContentPath } from './content-path.js';
import type { NameKey } from './keys.js';
import type { IpnsName } from './name-parse.js';

/** Contract section 7: validity one year, TTL five minutes. */
export const RECORD_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
export const RECORD_TTL_SECONDS = 300;
/** The ipns validator's own bound; checked first so a huge input is never decoded. */
export const MAX_RECORD_BYTES = 10 * 1024;

/** Why a record was refused; stable strings for tests and logs. */
export type RecordFault =
  | 'too-large'
  | 'malformed'
  | 'v1-only'
  | 'v1-v2-mismatch'
  | 'unsupported-validity'
  | 'missing-public-key'
  | 'name-mismatch'
  | 'signature'
  | 'expired'
  | 'bad-value';

/**
 * A record that exists but cannot be trusted. Serving it would be wrong and the client did nothing wrong,
 * so it maps to a 5xx (the gateway conformance suite expects 500..599 for broken records).
 */
export class InvalidRecordError extends AppError {
  override readonly name = 'InvalidRecordError';
  constructor(
    readonly reason: RecordFault,
    message: string,
  ) {
    super(ErrorCodes.internal, message);
  }
}

export interface ValidRecord {
  name: string;
  /** The record value as signed, e.g. `/ipfs/bafy...`. */
  value: string;
  target: ContentPath;
  sequence: bigint;
  /** End of validity (EOL), milliseconds since the epoch. */
  validUntilMs: number;
  ttlSeconds: number;
  bytes: Uint8Array;
}

// The ipns package is typed against @libp2p/interface 3 and multiformats 13, @libp2p/crypto 5 against
// @libp2p/interface 2 and multiformats 14: the objects are the same at run time, only the declarations differ.
type IpnsPrivateKey = Parameters<typeof createIPNSRecordWithExpiration>[0];
type RoutingMultihash = Parameters<typeof multihashToIPNSRoutingKey>[0];
function asIpnsKey(key: NameKey): IpnsPrivateKey {
  return key as unknown as IpnsPrivateKey;
}

/** Signs a V1+V2 record for `/ipfs/<cid>`, valid for `lifetimeMs` from `nowMs` (the ipns package writes CIDs as CIDv1). */
export async function signRecord(key: NameKey, cid: CID, sequence: number, nowMs: number, lifetimeMs = RECORD_LIFETIME_MS): Promise<Uint8Array> {
  const expiration = new Date(nowMs + lifetimeMs).toISOString();
  const record = await createIPNSRecordWithExpiration(asIpnsKey(key), cid, sequence, expiration, {
    v1Compatible: true,
    ttlNs: BigInt(RECORD_TTL_SECONDS) * 1_000_000_000n,
  });
  return marshalIPNSRecord(record);
}

/**
 * Full check of a marshalled record for `name`: the ipns package's validator (size, V2 signature against the
 * name's key or the embedded key, CBOR/protobuf agreement, EOL) and ours: expiry against `nowMs` (an injected
 * clock), and a value that is an `/ipfs/` or `/ipns/` path.
 */
export async function validateRecord(name: IpnsName, bytes: Uint8Array, nowMs: number): Promise<ValidRecord> {
  const fail = (reason: RecordFault, detail: string) => new InvalidRecordError(reason, `IPNS record of ${name.name} is invalid: ${detail}`);
  if (bytes.byteLength > MAX_RECORD_BYTES) throw fail('too-large', `larger than ${MAX_RECORD_BYTES} bytes`);
  try {
    await ipnsValidator(multihashToIPNSRoutingKey(name.multihash as RoutingMultihash), bytes);
  } catch (error) {
    const [reason, detail] = classify(error);
    throw fail(reason, detail);
  }
  const record = unmarshalIPNSRecord(bytes);
  const validUntilMs = parseRfc3339Ms(record.validity);
  if (validUntilMs === undefined) throw fail('unsupported-validity', `validity ${JSON.stringify(record.validity)} is not RFC 3339`);
  if (validUntilMs <= nowMs) throw fail('expired', `expired at ${record.validity}`);
  const target = parseContentPath(record.value);
  if (target === undefined) throw fail('bad-value', `value ${JSON.stringify(record.value)} is not an /ipfs/ or /ipns/ path`);
  const ttlNs = record.ttl ?? 0n;
  return {
    name: name.name,
    value: record.value,
    target,
    sequence: record.sequence,
    validUntilMs,
    ttlSeconds: Number(ttlNs / 1_000_000_000n),
    bytes,
  };
}

function classify(error: unknown): [RecordFault, string] {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  switch (name) {
    case 'RecordTooLargeError':
      return ['too-large', message];
    case 'RecordExpiredError':
      return ['expired', message];
    case 'UnsupportedValidityError':
      return ['unsupported-validity', message];
    case 'InvalidEmbeddedPublicKeyError':
      return message.includes('Could not extract')
        ? ['missing-public-key', 'no public key in the record or the name']
        : ['name-mismatch', 'the key embedded in the record is not the key of this name'];
    case 'SignatureVerificationError':
      if (message.includes('Missing data or signatureV2')) return ['v1-only', 'V1-only record (no signatureV2/data)'];
      if (message.includes('did not match between protobuf and CBOR')) return ['v1-v2-mismatch', message];
      return ['signature', 'the signature does not verify against the key of this name'];
    default:
      return ['malformed', 'not a decodable IPNS record'];
  }
}

/** RFC 3339 with any number of fractional digits (Go writes nanoseconds); milliseconds since the epoch. */
export function parseRfc3339Ms(text: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (match === null) return undefined;
  const [, base, fraction = '', zone = 'Z'] = match;
  const ms = Date.parse(`${base}.${fraction.padEnd(3, '0').slice(0, 3)}${zone.toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : ms;
}
