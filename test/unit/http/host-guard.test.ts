import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../main/base/errors.js';
import { checkHost, hostName } from '../../../main/http/host-guard.js';

describe('Host guard', () => {
  it('takes the name without the port, keeping IPv6 brackets', () => {
    expect(hostName('LocalHost:5080')).toBe('localhost');
    expect(hostName('[::1]:8080')).toBe('[::1]');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
  });

  it('lets loopback names through on any port', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:5080', 'localhost', 'localhost:1', 'LOCALHOST:65535', '[::1]', '[::1]:5080'])
      expect(() => checkHost(host, '127.0.0.1')).not.toThrow();
  });

  it('lets the configured --host through, IPv4, name or IPv6', () => {
    expect(() => checkHost('192.168.1.20:5080', '192.168.1.20')).not.toThrow();
    expect(() => checkHost('pinfold.lan:5080', 'pinfold.lan')).not.toThrow();
    expect(() => checkHost('[fe80::1]:5080', 'fe80::1')).not.toThrow();
  });

  it('refuses other names (DNS rebinding) and a missing Host with 403', () => {
    for (const host of ['evil.example', 'evil.example:5080', 'localhost.evil.example', '127.0.0.2', '[::2]', undefined, '']) {
      expect(() => checkHost(host, '127.0.0.1')).toThrow(ForbiddenError);
    }
    expect(() => checkHost('evil.example', '127.0.0.1')).toThrow(/evil\.example/);
  });
});
