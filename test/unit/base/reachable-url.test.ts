import { describe, expect, it } from 'vitest';
import { reachableUrl } from '../../../main/base/reachable-url.js';

describe('reachableUrl: the one URL the server hands out (listening line, server.json, upload addresses)', () => {
  it('a wildcard bind is reached on loopback', () => {
    expect(reachableUrl('0.0.0.0', { family: 'IPv4', address: '0.0.0.0', port: 5080 })).toBe('http://127.0.0.1:5080');
    expect(reachableUrl('::', { family: 'IPv6', address: '::', port: 5080 })).toBe('http://[::1]:5080');
  });

  it('any other host is the configured one as a client names it (the Host guard lets it in), with the port listened on', () => {
    expect(reachableUrl('192.0.2.7', { family: 'IPv4', address: '192.0.2.7', port: 81 })).toBe('http://192.0.2.7:81');
    expect(reachableUrl('::1', { family: 'IPv6', address: '::1', port: 81 })).toBe('http://[::1]:81');
    // A name stays a name, whichever address it was bound to: the guard accepts the name, not that address.
    expect(reachableUrl('LocalHost', { family: 'IPv4', address: '127.0.0.1', port: 5081 })).toBe('http://localhost:5081');
    expect(reachableUrl('pinfold.lan', { family: 'IPv4', address: '192.0.2.8', port: 5081 })).toBe('http://pinfold.lan:5081');
  });

  it('needs a TCP address', () => {
    expect(() => reachableUrl('127.0.0.1', null)).toThrow('server has no TCP address');
    expect(() => reachableUrl('127.0.0.1', '/tmp/pinfold.sock')).toThrow('server has no TCP address');
  });
});
