import { LoopDetectedError, NotFoundError } from '../base/errors.js';
import { joinRest, parseContentPath, type ContentPath } from './content-path.js';
import type { KeyHit } from './key-cache.js';
import { tryParseIpnsName } from './name-parse.js';
import type { Resolution } from './resolution.js';

/** Contract section 7: DNSLink (and IPNS pointing at IPNS) resolves recursively, at most 32 steps. */
export const MAX_RESOLVE_STEPS = 32;

/** Where the chain reads each hop: a key name's record, a domain's DNSLink value. */
export interface ChainHops {
  key(name: string): Promise<KeyHit>;
  dnsLink(domain: string): Promise<string>;
}

/** What one hop of the chain answered. */
interface Hop {
  value: string;
  target: ContentPath | undefined;
  /** The key's record and whether the name is held here; undefined for a DNSLink hop. */
  key?: KeyHit;
}

async function readHop(hops: ChainHops, current: string, isKey: boolean): Promise<Hop> {
  if (!isKey) {
    const value = await hops.dnsLink(current);
    return { value, target: parseContentPath(value) };
  }
  const key = await hops.key(current);
  return { value: key.record.value, target: key.record.target, key };
}

/** Follows DNSLink and IPNS names from `asked` to a content root, at most {@link MAX_RESOLVE_STEPS} hops. */
export async function resolveChain(hops: ChainHops, asked: string, kind: 'ipns' | 'dnslink'): Promise<Resolution> {
  let current = asked;
  let currentIsKey = kind === 'ipns';
  let path = '';
  let ttlSeconds: number | undefined;
  let first: Hop | undefined;
  let held = true;
  // Names are canonical here (key names in base36, domains lower-case), so a loop is a name seen twice.
  const passed: string[] = [];
  for (let step = 1; step <= MAX_RESOLVE_STEPS; step++) {
    if (passed.includes(current)) {
      throw new LoopDetectedError(`could not resolve ${asked}: ${[...passed, current].join(' -> ')} is a DNSLink or IPNS loop`);
    }
    passed.push(current);
    const hop = await readHop(hops, current, currentIsKey);
    first ??= hop;
    if (hop.key !== undefined) {
      held &&= hop.key.owned;
      ttlSeconds = Math.min(ttlSeconds ?? Infinity, hop.key.record.ttlSeconds);
    }
    const { target } = hop;
    if (target === undefined) throw new NotFoundError(`${current} points at ${hop.value}, which is not a content path`);
    path = joinRest(target.rest, path);
    if (target.namespace === 'ipfs') {
      const record = first.key?.record;
      return { name: asked, kind, value: first.value, cid: target.cid, path, ttlSeconds, record: record?.bytes, sequence: record?.sequence, held };
    }
    current = target.target;
    currentIsKey = tryParseIpnsName(current) !== undefined;
  }
  throw new LoopDetectedError(`could not resolve ${asked}: more than ${MAX_RESOLVE_STEPS} steps of DNSLink or IPNS names`);
}
