import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../../main/base/errors.js';
import { chooseFormat } from '../../../../main/http/gateway/negotiate.js';
import { parseRequestTarget } from '../../../../main/http/gateway/request-target.js';

const CID_TEXT = 'bafybeif733lqn5amqrssnyj4lgue4fxbfctjuhejaaljygukzrwsco6lce';

describe('parseRequestTarget', () => {
  it('takes a path apart: namespace, root, decoded segments, trailing slash, raw path, query, cache key', () => {
    const target = parseRequestTarget(`/ipfs/${CID_TEXT}/dir%20a/%C3%BC.txt/?ts=1&format=raw`);
    expect(target).toEqual({
      namespace: 'ipfs',
      rootText: CID_TEXT,
      segments: ['dir a', 'ü.txt'],
      trailingSlash: true,
      rawPath: `/ipfs/${CID_TEXT}/dir%20a/%C3%BC.txt/`,
      key: `${CID_TEXT}/dir a/ü.txt`,
      search: '?ts=1&format=raw',
    });
  });

  it('keeps "%2F" inside a segment apart from "/", and refuses the segment', () => {
    expect(() => parseRequestTarget(`/ipfs/${CID_TEXT}/a%2Fb`)).toThrow(BadInputError);
    expect(parseRequestTarget(`/ipfs/${CID_TEXT}/a/b`).segments).toEqual(['a', 'b']);
  });

  it('answers a path asked for again with the same parts, whatever the query, and never lets them be changed', () => {
    const first = parseRequestTarget(`/ipns/example.com/x?ts=1`);
    const again = parseRequestTarget(`/ipns/example.com/x?ts=2&download=true`);
    expect(again.segments).toBe(first.segments);
    expect(again.search).toBe('?ts=2&download=true');
    expect(first.search).toBe('?ts=1');
    expect(Object.isFrozen(first.segments)).toBe(true);
    expect(() => (first.segments as string[]).push('y')).toThrow(TypeError);
  });

  it('refuses a bad path every time it is asked for (failures are not remembered as parses)', () => {
    for (const bad of ['/ipfs/', `/ipfs/${CID_TEXT}/..`, `/ipfs/${CID_TEXT}/%E0%A4%A`, `/ipfs/${CID_TEXT}//x`, `/ipfs/${CID_TEXT}/a%00`, '/other/x']) {
      expect(() => parseRequestTarget(bad), bad).toThrow(BadInputError);
      expect(() => parseRequestTarget(`${bad}?ts=1`), bad).toThrow(BadInputError);
    }
  });
});

describe('chooseFormat', () => {
  it('gives a request with no Accept and only ts the same choice as the full parse does', () => {
    const plain = chooseFormat('?ts=1', undefined, 'ipfs');
    // An unrelated parameter takes the full parse; it must agree.
    expect(chooseFormat('?ts=1&unrelated=1', undefined, 'ipfs')).toEqual(plain);
    expect(chooseFormat('', undefined, 'ipfs')).toEqual(plain);
    expect(chooseFormat('?ts=1', '', 'ipns')).toEqual(plain);
    expect(plain).toEqual({ format: null, wantsHtml: false, car: { dups: false, scope: 'all' }, download: false });
  });

  it('still reads format, download and Accept when they are there', () => {
    expect(chooseFormat('?ts=1&format=raw', undefined, 'ipfs').format).toBe('raw');
    expect(chooseFormat('?format=car&ts=1', undefined, 'ipfs').format).toBe('car');
    expect(chooseFormat('?ts=1&download=true', undefined, 'ipfs').download).toBe(true);
    expect(chooseFormat('?ts=1', 'application/vnd.ipld.raw', 'ipfs').format).toBe('raw');
    expect(chooseFormat('?ts=1', 'text/html', 'ipfs').wantsHtml).toBe(true);
    expect(() => chooseFormat('?ts=1&format=nope', undefined, 'ipfs')).toThrow(BadInputError);
  });

  it('hands out a shared choice that cannot be changed', () => {
    const plain = chooseFormat('?ts=5', undefined, 'ipfs');
    expect(Object.isFrozen(plain)).toBe(true);
    expect(Object.isFrozen(plain.car)).toBe(true);
  });
});
