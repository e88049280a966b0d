import { describe, expect, it } from 'vitest';
import { httpOriginOf, keptOrigins, multiaddrOfUrl } from '../../../main/pins/http-multiaddr.js';

const PEER = '12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf';

describe('HTTP multiaddrs of the Pinning Service API (contract section 11)', () => {
  it('reads the HTTP(S) forms into an origin, with or without a peer id', () => {
    expect(httpOriginOf('/ip4/127.0.0.1/tcp/8080/http')).toBe('http://127.0.0.1:8080');
    expect(httpOriginOf('/ip4/203.0.113.9/tcp/443/https')).toBe('https://203.0.113.9');
    expect(httpOriginOf('/ip4/203.0.113.9/tcp/4443/tls/http')).toBe('https://203.0.113.9:4443');
    expect(httpOriginOf('/ip6/::1/tcp/80/http')).toBe('http://[::1]');
    expect(httpOriginOf('/dns4/Example.ORG/tcp/443/https')).toBe('https://example.org');
    expect(httpOriginOf('/dns/trustless.example/tcp/8443/https')).toBe('https://trustless.example:8443');
    expect(httpOriginOf(`/dns6/host.example/tcp/80/http/p2p/${PEER}`)).toBe('http://host.example');
  });

  it('answers null for every other multiaddr', () => {
    for (const other of [
      `/ip4/198.51.100.7/tcp/4001/p2p/${PEER}`,
      '/ip4/198.51.100.7/udp/4001/quic-v1',
      '/ip4/198.51.100.7/tcp/80',
      '/ip4/198.51.100.7/tcp/0/http',
      '/ip4/198.51.100.7/tcp/65536/http',
      '/ip4/198.51.100.7/tcp/8o/http',
      '/ip4/300.1.1.1/tcp/80/http',
      '/ip6/not-an-address/tcp/80/http',
      '/dns4/bad_name.example/tcp/80/http',
      '/dnsaddr/bootstrap.libp2p.io/tcp/80/http',
      '/ip4/198.51.100.7/tcp/80/http/extra',
      '/ip4/198.51.100.7/tcp/80/http/p2p/',
      'ip4/198.51.100.7/tcp/80/http',
      'http://198.51.100.7/',
      '',
      `/dns4/${'a'.repeat(1100)}/tcp/80/http`,
    ]) {
      expect(httpOriginOf(other), other).toBeNull();
    }
  });

  it('keeps the HTTP(S) origins of a list once each, in order', () => {
    expect(
      keptOrigins([`/ip4/198.51.100.7/tcp/4001/p2p/${PEER}`, '/dns4/a.example/tcp/443/https', '/ip4/127.0.0.1/tcp/9/http', '/dns4/a.example/tcp/443/https']),
    ).toEqual(['/dns4/a.example/tcp/443/https', '/ip4/127.0.0.1/tcp/9/http']);
  });

  it("writes Pinfold's own URL as a multiaddr (its delegate)", () => {
    expect(multiaddrOfUrl('http://127.0.0.1:5080')).toBe('/ip4/127.0.0.1/tcp/5080/http');
    expect(multiaddrOfUrl('http://[::1]:5080')).toBe('/ip6/::1/tcp/5080/http');
    expect(multiaddrOfUrl('http://pinfold.lan:80')).toBe('/dns/pinfold.lan/tcp/80/http');
    expect(httpOriginOf(multiaddrOfUrl('http://127.0.0.1:5080'))).toBe('http://127.0.0.1:5080');
  });
});
