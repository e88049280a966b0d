/**
 * Preloaded (`node --import`) into the Pinning Service API compliance suite's process
 * (test/integration/psa-compliance.test.ts). The suite checks every answer against the spec's schemas, which it
 * downloads at run time over `https.get` (oas2joi → swagger-parser → json-schema-ref-parser). Tests never reach
 * the network: the spec is answered from its copy in test/fixtures (tag v1.0.0, the version the suite names),
 * and any other https.get fails at once.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { Readable } from 'node:stream';

const SPEC_HOST = 'raw.githubusercontent.com';
const SPEC_PATH = '/ipfs/pinning-services-api-spec/v1.0.0/ipfs-pinning-service.yaml';
const spec = readFileSync(new URL('../fixtures/pinning-services-api-spec/ipfs-pinning-service.yaml', import.meta.url));

interface RequestTarget {
  hostname?: string | null;
  host?: string | null;
  path?: string | null;
}

/** What json-schema-ref-parser uses of a request: its events, setTimeout and abort. */
class OfflineRequest extends EventEmitter {
  setTimeout(): this {
    return this;
  }
  abort(): void {}
  destroy(): this {
    return this;
  }
}

function offlineGet(target: unknown): OfflineRequest {
  const { hostname, host, path } = (typeof target === 'object' && target !== null ? target : {}) as RequestTarget;
  const request = new OfflineRequest();
  const name = hostname ?? host ?? String(target);
  // After the caller has added its listeners.
  process.nextTick(() => {
    if (name !== SPEC_HOST || path !== SPEC_PATH) {
      request.emit('error', new Error(`no network in tests: https.get ${name}${path ?? ''}`));
      return;
    }
    const response = Object.assign(Readable.from([spec]), { statusCode: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    request.emit('response', response);
  });
  return request;
}

https.get = offlineGet as unknown as typeof https.get;
