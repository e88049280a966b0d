import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { contentTypeFromName, detectContentType, sniffContentType } from '../../../../main/content/read/content-type.js';
import { inspectNode } from '../../../../main/content/read/inspect-node.js';
import { GC, storeFromCars } from './fixture-store.js';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('content types', () => {
  it('maps extensions', () => {
    expect(contentTypeFromName('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFromName('PHOTO.JPG')).toBe('image/jpeg');
    expect(contentTypeFromName('noext')).toBeUndefined();
    expect(contentTypeFromName('archive.unknownext')).toBeUndefined();
  });

  it('sniffs magic numbers and text', () => {
    expect(sniffContentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), false)).toBe('image/png');
    expect(sniffContentType(bytes(0xff, 0xd8, 0xff, 0xe0), false)).toBe('image/jpeg');
    expect(sniffContentType(utf8('GIF89a....'), false)).toBe('image/gif');
    expect(sniffContentType(utf8('RIFF\0\0\0\0WEBPVP8 '), false)).toBe('image/webp');
    expect(sniffContentType(utf8('%PDF-1.7'), false)).toBe('application/pdf');
    expect(sniffContentType(utf8('  <!DOCTYPE html><html>'), true)).toBe('text/html; charset=utf-8');
    expect(sniffContentType(utf8('<?xml version="1.0"?><svg xmlns="x">'), true)).toBe('image/svg+xml');
    expect(sniffContentType(utf8('{ "a": [1, 2] }\n'), true)).toBe('application/json');
    expect(sniffContentType(utf8('{ "a": [1, 2'), false)).toBe('text/plain; charset=utf-8');
    expect(sniffContentType(utf8('zażółć gęślą jaźń'), true)).toBe('text/plain; charset=utf-8');
    expect(sniffContentType(bytes(0, 1, 2, 3, 0xfe), true)).toBe('application/octet-stream');
  });

  it('detects a UnixFS file holding JSON, and falls back when the first block is missing', async () => {
    const store = await storeFromCars(`${GC}path_gateway_dag/gateway-json-cbor.car`, 'kubo/test/cli/fixtures/TestGatewayMultiRange.car');
    const json = await inspectNode(store, CID.parse('bafkreibrppizs3g7axs2jdlnjua6vgpmltv7k72l7v7sa6mmht6mne3qqe'));
    expect(await detectContentType(store, json, undefined)).toBe('application/json');
    expect(await detectContentType(store, json, 'x.txt')).toBe('text/plain; charset=utf-8');
    const big = await inspectNode(store, CID.parse('bafybeiae5abzv6j3ucqbzlpnx3pcqbr2otbnpot7d2k5pckmpymin4guau'));
    expect(await detectContentType(store, big, undefined)).toMatch(/^(text\/plain|application\/octet-stream)/);
  });
});
