import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { SettingsFile, SettingsFileError } from '../../../main/base/settings-file.js';
import { distinctEndpoints, parseEndpoint, parseEndpointList, MAX_ENDPOINTS } from '../../../main/network/endpoints.js';
import { DEFAULT_NETWORK, openNetworkSettings } from '../../../main/network/settings.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pinfold-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('endpoints', () => {
  it('keeps an http(s) URL without its trailing slash, path kept', () => {
    expect(parseEndpoint('https://gw.example/', 'fetch_from')).toBe('https://gw.example');
    expect(parseEndpoint(' http://127.0.0.1:8080/prefix/ ', 'routing')).toBe('http://127.0.0.1:8080/prefix');
  });

  it.each([
    ['', /required/],
    ['gw.example', /not a URL/],
    ['ftp://gw.example', /not an http or https URL/],
    ['https://user:pw@gw.example', /credentials/],
    ['https://gw.example/?x=1', /query/],
    ['https://gw.example/#x', /fragment/],
  ])('refuses %j, naming the parameter', (text, message) => {
    expect(() => parseEndpoint(text, 'fetch_from')).toThrow(BadInputError);
    expect(() => parseEndpoint(text, 'fetch_from')).toThrow(message);
    expect(() => parseEndpoint(text, 'fetch_from')).toThrow(/^fetch_from: /);
  });

  it('drops duplicates and caps the list', () => {
    expect(parseEndpointList(['https://a.example/', 'https://a.example', 'https://b.example'], 'routing')).toEqual(['https://a.example', 'https://b.example']);
    const many = Array.from({ length: MAX_ENDPOINTS + 1 }, (_, i) => `https://h${i}.example`);
    expect(() => parseEndpointList(many, 'routing')).toThrow(/^routing: at most 16 URLs$/);
    expect(() => parseEndpointList(['https://a.example', 'nope'], 'routing')).toThrow(/^routing: "nope" is not a URL$/);
    expect(distinctEndpoints([...many.slice(0, MAX_ENDPOINTS), many[0] ?? ''], 'routing')).toHaveLength(MAX_ENDPOINTS);
    expect(() => distinctEndpoints(many, 'routing')).toThrow(/^routing: at most 16 URLs$/);
  });
});

describe('network settings', () => {
  it('starts from the public defaults when the data folder has no settings', async () => {
    const settings = await openNetworkSettings(new SettingsFile(path));
    expect(settings.current()).toEqual(DEFAULT_NETWORK);
    expect(settings.view().pinned).toEqual({ fetch_from: false, routing: false, offline: false });
  });

  it('saves a change (0600), applies it at once and tells the listeners; a new run reads it back', async () => {
    const settings = await openNetworkSettings(new SettingsFile(path));
    const seen: boolean[] = [];
    settings.onChange((values) => seen.push(values.offline));
    await settings.update({ offline: true, fetchFrom: ['http://127.0.0.1:9'] });
    expect(settings.current()).toEqual({ ...DEFAULT_NETWORK, offline: true, fetchFrom: ['http://127.0.0.1:9'] });
    expect(seen).toEqual([true]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    // Only what was chosen is written: a setting never chosen keeps following the default.
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      version: 1,
      network: { fetch_from: ['http://127.0.0.1:9'], offline: true },
    });
    const again = await openNetworkSettings(new SettingsFile(path));
    expect(again.current().offline).toBe(true);
  });

  it('keeps both of two changes made at once, in the file and in use', async () => {
    const settings = await openNetworkSettings(new SettingsFile(path));
    await Promise.all([settings.update({ offline: true }), settings.update({ routing: [] })]);
    expect(settings.current()).toMatchObject({ offline: true, routing: [] });
    expect((JSON.parse(await readFile(path, 'utf8')) as { network: unknown }).network).toEqual({ offline: true, routing: [] });
  });

  it('keeps other sections of the file', async () => {
    await writeFile(path, JSON.stringify({ version: 1, theme: 'dark' }));
    const settings = await openNetworkSettings(new SettingsFile(path));
    await settings.update({ routing: [] });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ theme: 'dark' });
  });

  it('lets a flag win for this run, says so, and still saves the change for later runs', async () => {
    const settings = await openNetworkSettings(new SettingsFile(path), { offline: true });
    const seen: boolean[] = [];
    settings.onChange(() => seen.push(true));
    await settings.update({ offline: false });
    expect(settings.current().offline).toBe(true);
    expect(settings.view()).toMatchObject({ offline: true, saved: { offline: false }, pinned: { offline: true, fetch_from: false } });
    // What is in use did not move: nobody is told.
    expect(seen).toEqual([]);
  });

  it('stops with a message naming the file when it is broken', async () => {
    await writeFile(path, '{not json');
    await expect(openNetworkSettings(new SettingsFile(path))).rejects.toThrow(SettingsFileError);
    await writeFile(path, JSON.stringify({ version: 1, network: { offline: 'no' } }));
    await expect(openNetworkSettings(new SettingsFile(path))).rejects.toThrow(`${path}: offline: true or false is required`);
    // The section is read by the schema the API's changes are (network-section.ts), its whole named `network`.
    await writeFile(path, JSON.stringify({ version: 1, network: { gateways: [] } }));
    await expect(openNetworkSettings(new SettingsFile(path))).rejects.toThrow(`${path}: network: unknown setting "gateways"`);
    await writeFile(path, JSON.stringify({ version: 1, network: ['https://gw.example'] }));
    await expect(openNetworkSettings(new SettingsFile(path))).rejects.toThrow(`${path}: network: a JSON object is required`);
    await writeFile(path, JSON.stringify({ version: 1, network: { routing: ['https://gw.example', 'ftp://x'] } }));
    await expect(openNetworkSettings(new SettingsFile(path))).rejects.toThrow(`${path}: routing: "ftp://x" is not an http or https URL`);
    await writeFile(path, JSON.stringify({ version: 1, network: { routing: ['https://gw.example/'], offline: true } }));
    expect((await openNetworkSettings(new SettingsFile(path))).current()).toEqual({ ...DEFAULT_NETWORK, routing: ['https://gw.example'], offline: true });
    await writeFile(path, JSON.stringify({ version: 2 }));
    await expect(openNetworkSettings(new SettingsFile(path))).rejects.toThrow(/version 2/);
  });
});
