import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../main/base/errors.js';
import { checkHost, parseHostHeader } from '../../../main/http/host-guard.js';

describe('Host header parser', () => {
  it('reads host and port, lower-cased, IPv6 in brackets, a trailing dot dropped', () => {
    expect(parseHostHeader('LocalHost:5080')).toEqual({ name: 'localhost', port: 5080 });
    expect(parseHostHeader('[::1]:8080')).toEqual({ name: '[::1]', port: 8080 });
    expect(parseHostHeader('[FE80::1]')).toEqual({ name: '[fe80::1]', port: undefined });
    expect(parseHostHeader('127.0.0.1')).toEqual({ name: '127.0.0.1', port: undefined });
    expect(parseHostHeader('localhost.:1')).toEqual({ name: 'localhost', port: 1 });
    expect(parseHostHeader('pinfold-1.lan:65535')).toEqual({ name: 'pinfold-1.lan', port: 65535 });
  });

  it.each([
    'localhost:@evil.example',
    'localhost:5080@evil.example',
    'user@localhost',
    'localhost@evil.example',
    '127.0.0.1:1/evil',
    '127.0.0.1/evil',
    'localhost:',
    'localhost:0',
    'localhost:65536',
    'localhost:123456',
    'localhost:80:80',
    'localhost:+80',
    'localhost:8o',
    ' localhost',
    'localhost ',
    'local host',
    'localhost\t',
    'localhost?x',
    'localhost#x',
    'localhost\\evil',
    '::1',
    '[::1',
    '[::1]x',
    '[::1]:',
    '[::1]:abc',
    '[::1]:1:2',
    '[evil.example]',
    '[127.0.0.1]',
    '-localhost',
    'localhost-',
    'a..b',
    '.localhost',
    'exa_mple.com',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(127)}ab`,
    '%6cocalhost',
    'localhost%00',
    '',
    ':80',
  ])('refuses %j', (header) => {
    expect(parseHostHeader(header)).toBeNull();
    expect(() => checkHost(header, '127.0.0.1')).toThrow(ForbiddenError);
  });
});

describe('Host guard', () => {
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

  it('refuses a configured name with a suffix or userinfo around it', () => {
    for (const host of ['pinfold.lan.evil.example', 'pinfold.lan:@evil.example', 'evil.example:@pinfold.lan', 'pinfold.lan:1/x'])
      expect(() => checkHost(host, 'pinfold.lan')).toThrow(ForbiddenError);
  });
});
