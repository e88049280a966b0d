/**
 * The Names page in Chromium against `pinfold serve`: the table (name, value, alias, published) with its
 * empty state, Create name from a CID (pinned too), Publish (a failure says why and offers Retry), the
 * alias edited in place, Import key from a PEM or libp2p protobuf file (Ed25519, RSA; read in the page,
 * sent only to the local service), Delete with confirmation, copy and open /ipns/<name>, live changes from
 * another client, and errors next to their action with nothing changed on the service.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IpnsRecordView } from '../../shared/api-types.js';
import { fixtureKey } from '../helpers/fixture-keys.js';
import { fixture } from '../helpers/fixtures.js';
import { axeCheck, freeUser, launchBrowser, newContext, screenshots, signIn, signInWithKey, startService, upload, type E2eService } from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let files: string;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
  files = await mkdtemp(join(tmpdir(), 'pinfold-e2e-keys-'));
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  if (files) await rm(files, { recursive: true, force: true });
});

beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

const encoder = new TextEncoder();
const heading = () => page.getByRole('heading', { level: 1, name: 'Names' });
const table = () => page.getByRole('table', { name: 'Names' });
const rows = () => table().locator('tbody tr:not(.table-placeholder)');
const row = (text: string) => rows().filter({ hasText: text });
const search = () => page.getByRole('searchbox', { name: 'Search names by IPNS name or alias' });
const summary = () => page.getByTestId('names-summary');
const path = () => new URL(page.url()).pathname + new URL(page.url()).search;
const short = (name: string) => `${name.slice(0, 12)}…${name.slice(-6)}`;

/** The "Points at" cell of a row, once it shows `cid`. */
function pointsAt(target: Locator, cid: string): Locator {
  return target.locator(`td:nth-child(2) .cid-value[title="${cid}"]`);
}

async function names(key = service.owner): Promise<IpnsRecordView[]> {
  const answer = await service.call<{ data: IpnsRecordView[]; total: number }>('GET', '/api/v0/ipns', { key, query: { limit: 1000 } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

async function nameRecord(name: string): Promise<IpnsRecordView | undefined> {
  return (await names()).find((entry) => entry.name === name);
}

async function createThroughApi(cid: string, alias: string, key = service.owner): Promise<string> {
  const answer = await service.call<{ data: { name: string } }>('POST', '/api/v0/name/create', { key, query: { arg: cid, alias } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data.name;
}

/** The protobuf bytes of a fixture key of a type the service refuses (fixtureKey lists only Ed25519 and RSA). */
function fixtureKeyBytes(id: string): Buffer {
  const entries = JSON.parse(fixture('keys.json').toString('utf8')) as Array<{ id: string; private_key_protobuf_hex?: string }>;
  const hex = entries.find((entry) => entry.id === id)?.private_key_protobuf_hex;
  if (hex === undefined) throw new Error(`no protobuf for fixture key ${id}`);
  return Buffer.from(hex, 'hex');
}

async function served(path: string): Promise<string> {
  const answer = await service.call('GET', path);
  return answer.text;
}

async function openNames(): Promise<void> {
  await page.goto(`${service.url}/names`);
  await heading().waitFor();
  await rows().first().waitFor();
}

/** The name of the row the page marks as just added. */
async function newRowName(): Promise<string> {
  const cell = table().locator('tr.is-new td').first();
  await cell.waitFor();
  return ((await cell.locator('.cid-value').first().getAttribute('title')) ?? '').trim();
}

describe('Names', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = await upload(service, service.owner, encoder.encode('the first version of the site\n'));
    second = await upload(service, service.owner, encoder.encode('the second version of the site\n'));
  });

  it('shows an empty account what to do next', async () => {
    await signIn(page, service);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Names' }).click();
    await heading().waitFor();
    await page.getByText('No names yet').waitFor();
    expect(await page.getByRole('navigation', { name: 'Names pages' }).count()).toBe(0);
    await axeCheck(page, 'empty Names');
    await screenshots(page, 'names-empty');
  });

  it('creates a name from a CID, pinned too; refuses a bad CID here and a taken alias there', async () => {
    await signIn(page, service);
    await page.goto(`${service.url}/names`);
    await page.getByText('No names yet').waitFor();
    const creates: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v0/name/create') creates.push(request.url());
    });
    await page.getByRole('button', { name: 'Create name' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create name' });
    await dialog.locator('input:focus').waitFor();
    await dialog.getByRole('button', { name: 'Create name' }).click();
    await dialog.getByText('Enter a CID.').waitFor();
    await dialog.getByLabel('CID to point at').fill(`/ipfs/${first}/index.html`);
    await page.keyboard.press('Enter');
    await dialog.getByText(`Only a whole CID can be published, not a path inside it: use ${first} instead.`).waitFor();
    expect(creates).toEqual([]);

    await dialog.getByLabel('CID to point at').fill(first);
    await dialog.getByLabel('Alias (optional)').fill('my site');
    expect(await dialog.getByRole('checkbox', { name: 'Pin this CID too' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Create name' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const created = await newRowName();
    expect(created).toMatch(/^k51/);
    await row('my site').waitFor();
    expect(await nameRecord(created)).toMatchObject({ value: first, alias: 'my site' });
    expect((await service.call('GET', `/api/v0/pin/${first}`)).status).toBe(200);
    expect(await served(`/ipns/${created}`)).toBe('the first version of the site\n');

    // The alias is taken: the service refuses, the dialog says so, no second name appears.
    await page.getByRole('button', { name: 'Create name' }).first().click();
    await dialog.getByLabel('CID to point at').fill(second);
    await dialog.getByLabel('Alias (optional)').fill('my site');
    await dialog.getByRole('button', { name: 'Create name' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Alias my site is already used.' }).waitFor();
    await axeCheck(page, 'Create name refused');
    await screenshots(page, 'names-create-error');
    expect(await names()).toHaveLength(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('button:focus', { hasText: 'Create name' }).waitFor();
  });

  it('publishes a new CID to a name; a failure says why and offers Retry', async () => {
    const name = (await names())[0]?.name ?? '';
    await signIn(page, service);
    await openNames();
    await row('my site').getByRole('button', { name: 'Publish to my site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish to my site' });
    await dialog.locator(`[title="${first}"]`).waitFor();
    await dialog.getByLabel('New CID', { exact: true }).fill('not a cid');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await dialog.getByText('This is not a CID.').waitFor();

    // Refused by the service: a CID it could never verify, to pin.
    const blake3 = CID.createV1(raw.code, createDigest(0x1e, new Uint8Array(32).fill(3))).toString();
    await dialog.getByLabel('New CID', { exact: true }).fill(blake3);
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /^Publishing failed: This CID uses multihash function 0x1e .*which Pinfold cannot verify\./ })
      .waitFor();
    expect((await nameRecord(name))?.value).toBe(first);

    // A failure on the way (the service was busy): Retry sends it again.
    await page.route('**/api/v0/name/publish*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, msg: 'the name is being republished' }) }),
    );
    await dialog.getByLabel('New CID', { exact: true }).fill(second);
    await dialog.getByRole('button', { name: 'Publish' }).click();
    const failure = dialog.getByRole('alert').filter({ hasText: 'Publishing failed: The service failed (503): the name is being republished.' });
    await failure.waitFor();
    await axeCheck(page, 'Publish failed');
    await screenshots(page, 'names-publish-error');
    expect((await nameRecord(name))?.value).toBe(first);
    await page.unroute('**/api/v0/name/publish*');
    await failure.getByRole('button', { name: 'Retry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await pointsAt(row('my site'), second).waitFor();
    expect((await nameRecord(name))?.value).toBe(second);
    expect(await served(`/ipns/${name}`)).toBe('the second version of the site\n');
  });

  it('edits an alias in place; a taken alias is refused under the field', async () => {
    const other = await createThroughApi(first, 'blog');
    await signIn(page, service);
    await openNames();
    await row('blog').waitFor();
    await page.getByRole('button', { name: 'Edit the alias of blog' }).click();
    const field = page.getByRole('textbox', { name: 'Alias of blog' });
    await field.fill('my site');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Alias my site is already used.' }).waitFor();
    expect((await nameRecord(other))?.alias).toBe('blog');
    await field.fill('journal');
    await page.keyboard.press('Enter');
    await row('journal').waitFor();
    expect((await nameRecord(other))?.alias).toBe('journal');
    await page
      .locator('button:focus')
      .and(page.getByRole('button', { name: 'Edit the alias of journal' }))
      .waitFor();
  });

  it('imports keys from PEM and libp2p files, read in the page and sent only to this service', async () => {
    const ed = fixtureKey('kubo-openssl-ed25519');
    const rsa = fixtureKey('kubo-openssl-rsa');
    const secp = fixtureKeyBytes('libp2p-specs-secp256k1');
    const pemFile = join(files, 'ed25519.pem');
    const protobufFile = join(files, 'rsa.key');
    const secpFile = join(files, 'secp256k1.key');
    const publicFile = join(files, 'public.pem');
    await writeFile(pemFile, ed.pem ?? '');
    await writeFile(protobufFile, rsa.protobuf);
    await writeFile(secpFile, secp);
    await writeFile(publicFile, '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n');
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(`${service.url}/`) && !request.url().startsWith('blob:') && !request.url().startsWith('data:'))
        elsewhere.push(request.url());
    });
    const imports: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v0/name/import') imports.push(request.url());
    });

    await signIn(page, service);
    await openNames();
    const dialog = page.getByRole('dialog', { name: 'Import key' });
    const open = async () => {
      await page.getByRole('button', { name: 'Import key' }).click();
      await dialog.waitFor();
    };

    // Refused in the page: no file, a public key, a CID that is not one.
    await open();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('Choose a key file.').waitFor();
    await dialog.getByLabel('Key file').setInputFiles(publicFile);
    await dialog.getByText('This file holds a public key, not a private key.').waitFor();
    await dialog.getByLabel('Key file').setInputFiles(pemFile);
    await dialog.getByText('ed25519.pem: PEM (PKCS#8) private key.').waitFor();
    await dialog.getByLabel('CID to point at').fill('nope');
    await dialog.getByLabel('Sequence number (optional)').fill('-1');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('This is not a CID.').waitFor();
    await dialog.getByText('A sequence number is a whole number, 0 or more.').waitFor();
    expect(imports).toEqual([]);
    await axeCheck(page, 'Import key with errors');
    await screenshots(page, 'names-import-errors');

    await dialog.getByLabel('CID to point at').fill(first);
    await dialog.getByLabel('Sequence number (optional)').fill('41');
    await dialog.getByLabel('Alias (optional)').fill('imported ed25519');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await newRowName()).toBe(ed.name);
    expect(await nameRecord(ed.name)).toMatchObject({ value: first, alias: 'imported ed25519' });
    await page.getByText(`Imported ${ed.name.slice(0, 12)}`).waitFor();

    // A libp2p protobuf file (RSA).
    await open();
    await dialog.getByLabel('Key file').setInputFiles(protobufFile);
    await dialog.getByText('rsa.key: libp2p private key (protobuf).').waitFor();
    await dialog.getByLabel('CID to point at').fill(second);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await newRowName()).toBe(rsa.name);
    expect(await served(`/ipns/${rsa.name}`)).toBe('the second version of the site\n');

    // Refused by the service: a key type it does not take, and a key already here. Nothing new is stored.
    const before = (await names()).length;
    await open();
    await dialog.getByLabel('Key file').setInputFiles(secpFile);
    await dialog.getByLabel('CID to point at').fill(first);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'unsupported key type' }).waitFor();
    await dialog.getByLabel('Key file').setInputFiles(pemFile);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: `Name ${ed.name} already exists.` })
      .waitFor();
    expect(await names()).toHaveLength(before);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(elsewhere).toEqual([]);
  });

  it('copies a name, opens /ipns/<name>, and deletes after a confirmation that can be cancelled', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = await createThroughApi(first, 'to delete');
    await signIn(page, service);
    await openNames();
    const target = row('to delete');
    await target.getByRole('button', { name: 'Copy IPNS name' }).click();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(name);

    // Open is a link to /ipns/<name>; the gateway worker adds the window's key to the tab's navigation.
    const open = target.getByRole('link', { name: 'Open to delete in a new tab' });
    expect(await open.getAttribute('href')).toBe(`/ipns/${name}`);
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await tab.getByText('the first version of the site').waitFor();
    expect(await tab.locator('body').textContent()).toBe('the first version of the site\n');
    await tab.close();

    await target.getByRole('button', { name: 'Delete to delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete to delete?' });
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await axeCheck(page, 'Delete name dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await nameRecord(name)).toBeDefined();
    await target.getByRole('button', { name: 'Delete to delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await target.waitFor({ state: 'detached' });
    expect(await nameRecord(name)).toBeUndefined();
    expect((await service.call('GET', `/api/v0/ipns/${name}`)).status).toBe(404);
    // The content stays pinned.
    expect((await service.call('GET', `/api/v0/pin/${first}`)).status).toBe(200);
  });

  it('makes a name public after a confirmation that says what it reveals, marks it, and makes it private again without asking', async () => {
    const name = await createThroughApi(first, 'the site');
    await signIn(page, service);
    await openNames();
    const target = row('the site');
    const toggle = target.getByRole('switch', { name: 'Public on the IPFS network: the site' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await target.getByText('Public', { exact: true }).count()).toBe(0);

    // On asks first, saying what it reveals; Cancel (where focus starts) changes nothing.
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'Make the site public?' });
    await dialog.getByText('anyone who knows the name learns its root CID').waitFor();
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await axeCheck(page, 'Make a name public dialog');
    await screenshots(page, 'names-public-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await nameRecord(name))?.public).toBe(false);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    await toggle.click();
    await dialog.getByRole('button', { name: 'Make public' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('the site is public: its records go to the IPFS network now and with every change.').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await target.getByText('Public', { exact: true }).waitFor();
    expect((await nameRecord(name))?.public).toBe(true);
    await axeCheck(page, 'Names with a public name');
    await screenshots(page, 'names-public');

    // Off does not ask.
    await toggle.click();
    await page.getByText('the site is private again', { exact: false }).waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect((await nameRecord(name))?.public).toBe(false);
    expect(await target.getByText('Public', { exact: true }).count()).toBe(0);
  });

  it('shows names created, published and deleted by another client without a reload', async () => {
    await signIn(page, service);
    await openNames();
    const name = await createThroughApi(first, 'from a script');
    await rows().first().filter({ hasText: 'from a script' }).waitFor();
    expect((await service.call('POST', '/api/v0/name/publish', { query: { key: name, arg: second } })).status).toBe(200);
    await pointsAt(row('from a script'), second).waitFor();
    expect((await service.call('POST', '/api/v0/name/rm', { query: { key: name } })).status).toBe(200);
    await row('from a script').waitFor({ state: 'detached' });
    await axeCheck(page, 'Names, full');
    await screenshots(page, 'names-full');
  });

  it('opens /names?name=<name> (the ipfs:// handler) filtered to that name, also from before sign-in; finds a name by alias; the URL follows the box', async () => {
    const target = await createThroughApi(first, 'deep linked');
    await createThroughApi(second, 'another one');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/v0/ipns')) asked.push(url.pathname + (url.searchParams.has('alias') ? `?alias=${url.searchParams.get('alias')}` : ''));
    });

    // Signed out: the deep link waits for sign-in, then opens filtered, the box holding the name.
    await page.goto(`${service.url}/names?name=${target}`);
    await signInWithKey(page, service.owner);
    await heading().waitFor();
    await summary()
      .getByText(`The name ${short(target)}.`)
      .waitFor();
    expect(await rows().count()).toBe(1);
    await row('deep linked').waitFor();
    expect(await search().inputValue()).toBe(target);
    expect(path()).toBe(`/names?name=${target}`);
    // Asked of the service by name (at any number of names), not found in a page of the list.
    expect(asked).toContain(`/api/v0/ipns/${target}`);
    expect(await page.getByRole('navigation', { name: 'Names pages' }).count()).toBe(0);
    await axeCheck(page, 'Names, one name');
    await screenshots(page, 'names-search');

    // An alias matches in full: a part finds nothing and says how aliases match.
    await search().fill('another');
    await page.getByText('No names match').waitFor();
    await summary().getByText('No name has the alias “another”. An alias matches in full, capitals included').waitFor();
    expect(path()).toBe('/names?alias=another');
    await axeCheck(page, 'Names, no match');
    await search().fill('another one');
    await summary().getByText('The name with the alias “another one”.').waitFor();
    await row('another one').waitFor();
    expect(await rows().count()).toBe(1);
    expect(path()).toBe('/names?alias=another+one');
    await page.reload();
    await row('another one').waitFor();
    expect(await search().inputValue()).toBe('another one');
    await page.getByRole('button', { name: 'Show all names' }).click();
    await summary()
      .getByText(/^\d+ names\.$/)
      .waitFor();
    expect(path()).toBe('/names');

    // A name of no one here, as an address: found nowhere, with a way back to the list.
    const stranger = fixtureKey('js-libp2p-example-ed25519').name;
    await search().fill(`ipns://${stranger}`);
    await summary()
      .getByText(`No name ${short(stranger)} on this account.`)
      .waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await summary()
      .getByText(/^\d+ names\.$/)
      .waitFor();
    expect(path()).toBe('/names');
    expect(await search().inputValue()).toBe('');
  });

  it("shows the sync folder that publishes a name, linked to the folder's page, beside its Public mark (issue 26)", async () => {
    const folder = join(files, 'holiday-photos');
    await mkdir(folder);
    await writeFile(join(folder, 'beach.txt'), 'sand\n');
    const added = await service.call<{ data: { id: string; ipns_name: string } }>('POST', '/api/v0/sync/add', { body: { path: folder } });
    expect(added.status, added.text).toBe(200);
    const { id, ipns_name: name } = added.json.data;
    expect(name).not.toBe('');
    const made = await service.call('POST', '/api/v0/name/public', { query: { arg: name, on: 'true' } });
    expect(made.status, made.text).toBe(200);

    await signIn(page, service);
    await page.goto(`${service.url}/names?name=${name}`);
    const target = row(short(name));
    const link = target.getByRole('link', { name: 'holiday-photos' });
    await link.waitFor();
    await target.getByText('Sync folder', { exact: false }).first().waitFor();
    expect(await link.getAttribute('title')).toBe(folder);
    await target.getByText('Public', { exact: true }).waitFor();
    // Another name is no folder's.
    await page.goto(`${service.url}/names`);
    await rows().first().waitFor();
    expect(await table().getByRole('link', { name: 'holiday-photos' }).count()).toBe(1);
    await axeCheck(page, 'Names, a sync folder name');
    await screenshots(page, 'names-sync-folder');

    await table().getByRole('link', { name: 'holiday-photos' }).click();
    await page.getByRole('heading', { level: 1, name: 'holiday-photos' }).waitFor();
    expect(path()).toBe(`/sync/${id}`);
  });

  it('shows why the list could not load, with Retry, and recovers', async () => {
    await signIn(page, service);
    await page.route('**/api/v0/ipns?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, msg: 'database is locked' }) }),
    );
    await page.goto(`${service.url}/names`);
    const error = table().getByRole('alert').filter({ hasText: 'The service failed (500): database is locked.' });
    await error.waitFor();
    await axeCheck(page, 'Names with an error');
    await screenshots(page, 'names-error');
    await page.unroute('**/api/v0/ipns?*');
    await error.getByRole('button', { name: 'Retry' }).click();
    await rows().first().waitFor();
  });
});

describe('Names of an account on the Free plan', () => {
  it('says so when the plan allows no more names, and creates nothing', async () => {
    const user = await freeUser(service);
    const cid = await upload(service, user.key, encoder.encode('free user content\n'));
    for (let i = 0; i < 3; i++) await createThroughApi(cid, `free ${i}`, user.key);
    await page.goto(`${service.url}/names`);
    await signInWithKey(page, user.key);
    await heading().waitFor();
    await page.getByTestId('names-summary').getByText('3 names.').waitFor();
    await page.getByRole('button', { name: 'Create name' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create name' });
    await dialog.getByLabel('CID to point at').fill(cid);
    await dialog.getByRole('button', { name: 'Create name' }).click();
    await dialog.getByRole('alert').filter({ hasText: "Your plan's limit on IPNS names is reached." }).waitFor();
    expect(await names(user.key)).toHaveLength(3);
  });
});
