import { describe, expect, it } from 'vitest';
import { canonicalPath, decodedPath, signedPathForms } from '../../../main/http/signed-path.js';

describe('signed path forms (contract section 2, canonical path)', () => {
  it('canonical: empty segments and the trailing slash removed, nothing else', () => {
    expect(canonicalPath('/ipfs/x/')).toBe('/ipfs/x');
    expect(canonicalPath('//ipfs///x//y/')).toBe('/ipfs/x/y');
    expect(canonicalPath('/')).toBe('/');
    expect(canonicalPath('/ipfs/x/y')).toBe('/ipfs/x/y');
    expect(canonicalPath('//')).toBe('/');
    expect(canonicalPath('')).toBe('/');
    expect(canonicalPath('/ipfs/x/./../y%2F')).toBe('/ipfs/x/./../y%2F');
  });

  it('decoded: segment by segment, only when that is unambiguous', () => {
    expect(decodedPath('/ipfs/x/dir%20with%20space/%C3%BC.txt')).toBe('/ipfs/x/dir with space/ü.txt');
    expect(decodedPath('/ipfs/x/plain')).toBeUndefined();
    expect(decodedPath('/ipfs/x/a%2Fb')).toBeUndefined();
    expect(decodedPath('/ipfs/x/a%2fb')).toBeUndefined();
    expect(decodedPath('/ipfs/x/a%2541')).toBeUndefined();
    expect(decodedPath('/ipfs/x/%252F')).toBeUndefined();
    expect(decodedPath('/ipfs/x/bad%ZZ')).toBeUndefined();
    expect(decodedPath('/ipfs/x/%C3')).toBeUndefined();
    expect(decodedPath('/ipfs/x/a%0Ab')).toBeUndefined();
    expect(decodedPath('/ipfs/x/a%7Fb')).toBeUndefined();
    expect(decodedPath('/ipfs/x/100%25')).toBe('/ipfs/x/100%');
    expect(decodedPath('/ipfs/x/a%3Fb%23c')).toBe('/ipfs/x/a?b#c');
    expect(decodedPath('/ipfs/x/%2E%2E')).toBe('/ipfs/x/..');
  });

  it('lists as sent, canonical, decoded canonical, each once', () => {
    expect(signedPathForms('/api/v0/pin')).toEqual(['/api/v0/pin']);
    expect(signedPathForms('/ipfs/x/')).toEqual(['/ipfs/x/', '/ipfs/x']);
    expect(signedPathForms('/ipfs/x/a%20b')).toEqual(['/ipfs/x/a%20b', '/ipfs/x/a b']);
    expect(signedPathForms('/ipfs/x/a%20b/')).toEqual(['/ipfs/x/a%20b/', '/ipfs/x/a%20b', '/ipfs/x/a b']);
    expect(signedPathForms('/ipfs/x/a%2Fb/')).toEqual(['/ipfs/x/a%2Fb/', '/ipfs/x/a%2Fb']);
  });
});
