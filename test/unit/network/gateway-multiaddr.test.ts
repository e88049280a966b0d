import { describe, expect, it } from 'vitest';
import { gatewayUrlOfMultiaddr } from '../../../main/network/gateway-multiaddr.js';

describe('gatewayUrlOfMultiaddr', () => {
  it.each([
    ['/ip4/127.0.0.1/tcp/8080/http', 'http://127.0.0.1:8080'],
    ['/ip4/127.0.0.1/tcp/80/http', 'http://127.0.0.1'],
    ['/ip6/::1/tcp/8080/http', 'http://[::1]:8080'],
    ['/dns4/GW.Example/tcp/443/https', 'https://gw.example'],
    ['/dns/gw.example/tcp/8443/tls/http', 'https://gw.example:8443'],
    ['/dns6/gw.example/tcp/443/tls/sni/gw.example/http', 'https://gw.example'],
    ['/dns4/gw.example/tcp/443/https/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN', 'https://gw.example'],
    ['/dns4/gw.example/tcp/443/https/http-path/%2Fprefix%2F', 'https://gw.example/prefix'],
  ])('reads %s as %s', (text, url) => {
    expect(gatewayUrlOfMultiaddr(text)).toBe(url);
  });

  it.each([
    '/ip4/127.0.0.1/tcp/4001',
    '/ip4/127.0.0.1/udp/4001/quic-v1',
    '/ip4/127.0.0.1/tcp/443/wss',
    '/ip4/127.0.0.1/tcp/443/tls/ws',
    '/ip4/999.0.0.1/tcp/80/http',
    '/ip4/127.0.0.1/tcp/0/http',
    '/ip4/127.0.0.1/tcp/70000/http',
    '/dnsaddr/bootstrap.example/tcp/443/https',
    '/dns4/bad_host/tcp/443/https',
    '/ip4/127.0.0.1/tcp/80/http/p2p-circuit',
    '/ip4/127.0.0.1/tcp/80/http/',
    'http://127.0.0.1',
    '',
  ])('ignores %j', (text) => {
    expect(gatewayUrlOfMultiaddr(text)).toBeNull();
  });
});
