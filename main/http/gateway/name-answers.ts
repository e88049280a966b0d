import type { NameResolver, Resolution } from '../../names/resolver.js';
import type { GatewayDeps, ResolvedName } from './types.js';

/** The longest Cache-Control max-age we send (one year, as for immutable content). */
const MAX_CACHE_SECONDS = 29_030_400;

/**
 * The gateway's view of `/ipns/{name}`: the resolver's answer in the gateway's shape, made once per cached
 * resolution and handed back as it is (not in a promise) while the record is cached. The same object each
 * time lets the dispatcher's resolution cache and the headers' memos (keyed by object) hit for /ipns as
 * they do for /ipfs; building it per request, with a promise and an abort signal, cost /ipns a third of
 * its rate against /ipfs of the same content (test/bench/ipns.ts).
 */
export function gatewayNameResolver(resolver: NameResolver): GatewayDeps['resolveName'] {
  const answers = new WeakMap<Resolution, ResolvedName>();
  const answerOf = (resolution: Resolution): ResolvedName => {
    let answer = answers.get(resolution);
    if (answer === undefined) {
      const path = resolution.path.split('/').filter((segment) => segment !== '');
      answer = {
        cid: resolution.cid,
        path,
        key: [resolution.cid.toString(), ...path].join('/'),
        // DNSLink answers carry no TTL we can read: send no Cache-Control rather than guess.
        ttlSeconds: Math.min(resolution.ttlSeconds ?? 0, MAX_CACHE_SECONDS),
        ...(resolution.record ? { record: resolution.record } : {}),
        ...(resolution.sequence === undefined ? {} : { sequence: resolution.sequence }),
        held: resolution.held,
      };
      answers.set(resolution, answer);
    }
    return answer;
  };
  return (name) => {
    const cached = resolver.peek(name);
    return cached !== undefined ? answerOf(cached) : resolver.resolve(name).then(answerOf);
  };
}
