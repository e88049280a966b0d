/**
 * The Keys page in Chromium against `pinfold serve`: keys and browser sessions apart, creating a key
 * (admin implies the rest; the secret shown once, with Copy), every bad input beside its field with
 * nothing created, delete and revoke with a confirmation, the window's own key refused with a reason,
 * changes made by another client arriving live, the keyboard alone, and the desktop app's keychain
 * through a stubbed bridge.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccessKeyView, CreatedAccessKey, Permission, SessionKey, SignInCode } from '../../shared/api-types.js';
import { createKey } from '../helpers/account-api.js';
import { call } from '../helpers/test-server.js';
import {
  axeCheck,
  bridgeCalls,
  freeUser,
  launchBrowser,
  newContext,
  screenshots,
  signIn,
  signInWithKey,
  startService,
  stubBridge,
  type E2eService,
} from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

beforeEach(async () => {
  context = await newContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

async function keysOf(key: CreatedAccessKey = service.owner): Promise<AccessKeyView[]> {
  const answer = await service.call<{ data: AccessKeyView[] }>('GET', '/api/v0/keys', { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

const keyNames = async (key?: CreatedAccessKey) => (await keysOf(key)).map((each) => each.name).sort();

/** A browser session of the owner, as a second window signed in by link would have. */
async function anotherSession(): Promise<SessionKey> {
  const code = await service.call<{ data: SignInCode }>('POST', '/api/v0/session/code');
  const session = await call<{ data: SessionKey }>(service, 'POST', '/api/v0/session', { query: { code: code.json.data.code }, noTs: true });
  expect(session.status, session.text).toBe(200);
  return session.json.data;
}

const keysTable = () => page.getByRole('table', { name: 'Access keys' });
const sessionsTable = () => page.getByRole('table', { name: 'Browser sessions' });
const form = () => page.getByRole('form', { name: 'New access key' });
const permission = (name: string) => form().getByRole('checkbox', { name, exact: true });

async function openKeys(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
  await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
  await keysTable().getByRole('row').nth(1).waitFor();
}

async function checked(names: readonly string[]): Promise<Record<string, { checked: boolean; disabled: boolean }>> {
  const state: Record<string, { checked: boolean; disabled: boolean }> = {};
  for (const name of names) state[name] = { checked: await permission(name).isChecked(), disabled: await permission(name).isDisabled() };
  return state;
}

describe('Keys', () => {
  it("lists keys and browser sessions apart, marks this window's session, and creates a key whose secret is shown once", async () => {
    await signIn(page, service);
    await openKeys();
    const owner = (await keysOf()).find((key) => key.access_key === service.owner.access_key);
    await keysTable()
      .getByRole('row', { name: new RegExp(owner?.name ?? 'owner') })
      .getByText('Admin')
      .waitFor();
    const mine = sessionsTable().getByRole('row').filter({ hasText: 'This window' });
    await mine.getByText(/Browser session \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/).waitFor();
    expect(await mine.getByRole('time').textContent()).toMatch(/^in (6|7) days$/);
    await axeCheck(page, 'Keys');
    await screenshots(page, 'keys');

    // Admin implies the rest: ticked and unchangeable while admin is; the own choice comes back after.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).and(page.locator(':focus')).waitFor();
    await permission('Pin').check();
    await permission('Admin').check();
    expect(await checked(['Read', 'Write', 'Pin', 'Unpin'])).toEqual({
      Read: { checked: true, disabled: true },
      Write: { checked: true, disabled: true },
      Pin: { checked: true, disabled: true },
      Unpin: { checked: true, disabled: true },
    });
    await permission('Admin').uncheck();
    expect(await checked(['Read', 'Write', 'Pin', 'Unpin'])).toEqual({
      Read: { checked: false, disabled: false },
      Write: { checked: false, disabled: false },
      Pin: { checked: true, disabled: false },
      Unpin: { checked: false, disabled: false },
    });
    await permission('Read').check();
    await page.getByRole('textbox', { name: 'Name' }).fill('  deploy script ');
    await axeCheck(page, 'Keys, new key form');
    await form().getByRole('button', { name: 'Create key' }).click();

    const panel = page.getByRole('region', { name: 'Key “deploy script” created' });
    await panel.waitFor();
    await panel.getByText('Copy the secret now: it is shown only this once.').waitFor();
    const accessKey = (await panel.getByTestId('new-access-key').textContent()) ?? '';
    const secret = (await panel.getByTestId('new-access-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const created = (await keysOf()).find((key) => key.access_key === accessKey);
    expect(created).toEqual({ name: 'deploy script', access_key: accessKey, permissions: ['read', 'pin'], session: false });
    // The secret shown is the key's: the service knows it (403 for a missing permission, not 401).
    const withIt = await call(service, 'GET', '/api/v0/stats', { key: { access_key: accessKey, access_secret: secret } });
    expect([withIt.status, withIt.text]).toEqual([403, '{"code":403,"msg":"permission missing: admin","error":"permission"}']);

    await panel.getByRole('button', { name: 'Copy access secret' }).click();
    await panel.getByRole('status').filter({ hasText: 'Copied access secret' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    // The key's token for remote pinning (contract section 11), with Copy and the Kubo command that adds the service.
    const token = (await panel.getByTestId('new-psa-token').textContent()) ?? '';
    expect(token).toBe(`${accessKey}.${secret}`);
    await panel.getByRole('button', { name: 'Copy pinning service token' }).click();
    await panel.getByRole('status').filter({ hasText: 'Copied pinning service token' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    // The command carries the token the service has just given, ready to paste into a terminal beside Kubo.
    const kubo = `ipfs pin remote service add pinfold ${service.url}/psa ${token}`;
    expect(await panel.getByTestId('kubo-service-add').textContent()).toBe(kubo);
    await panel.getByRole('button', { name: 'Copy Kubo command' }).click();
    await panel.getByRole('status').filter({ hasText: 'Copied Kubo command' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(kubo);
    const psa = await fetch(`${service.url}/psa/pins`, { headers: { Authorization: `Bearer ${token}` } });
    // The token is the key's: its permissions apply (listing is the account API's, which this key lacks).
    expect([psa.status, await psa.json()]).toEqual([403, { error: { reason: 'FORBIDDEN', details: 'permission missing: admin' } }]);
    await axeCheck(page, 'Keys, secret shown');
    await screenshots(page, 'keys-secret');

    await panel.getByRole('button', { name: 'Done' }).click();
    await panel.waitFor({ state: 'hidden' });
    await page.locator('button:focus', { hasText: 'Create key' }).waitFor();
    const row = keysTable().getByRole('row', { name: /deploy script/ });
    expect(await row.getByText(/^(Read|Write|Pin|Unpin|Admin)$/).allTextContents()).toEqual(['Read', 'Pin']);
    expect(await page.content()).not.toContain(secret);
  });

  it('says what is wrong beside each field and creates nothing: empty, too long, taken, no permission, and a refusal by the service', async () => {
    await createKey(service, service.owner, 'taken', ['read']);
    await signIn(page, service);
    await openKeys();
    const before = await keyNames();
    await page.getByRole('button', { name: 'Create key' }).click();
    const name = page.getByRole('textbox', { name: 'Name' });
    const submit = form().getByRole('button', { name: 'Create key' });

    await submit.click();
    await form().getByText('Enter a name for the key, such as the script or app that will use it.').waitFor();
    await form().getByText('Choose at least one permission.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.and(page.locator(':focus')).waitFor();
    await axeCheck(page, 'Keys, form errors');
    await screenshots(page, 'keys-form-errors');

    await name.fill('x'.repeat(129));
    await permission('Write').check();
    await submit.click();
    await form().getByText('Use at most 128 characters (this name has 129).').waitFor();
    await name.fill('taken ');
    await submit.click();
    await form().getByText('A key named “taken” already exists. Names are unique within an account.').waitFor();

    await name.fill('fine name');
    await permission('Write').uncheck();
    await submit.click();
    await form().getByText('Choose at least one permission.').waitFor();
    await permission('Admin').and(page.locator(':focus')).waitFor();

    // Another window took the name between the list and the click: the service's 409, said in the form.
    await page.route('**/api/v0/key?*', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ code: 409, msg: 'an access key named "fine name" already exists' }),
          })
        : route.fallback(),
    );
    await permission('Unpin').check();
    await submit.click();
    await form().getByRole('alert').filter({ hasText: 'An access key named "fine name" already exists.' }).waitFor();
    expect(await keyNames()).toEqual(before);
    await page.unroute('**/api/v0/key?*');
    await form().getByRole('button', { name: 'Cancel' }).click();
    await form().waitFor({ state: 'hidden' });
    await page.locator('button:focus', { hasText: 'Create key' }).waitFor();
  });

  it('deletes after a confirmation that can be cancelled, revokes another session, and follows changes made elsewhere without a reload', async () => {
    await signIn(page, service);
    await openKeys();
    // Made by another client while the page is open: it appears by itself.
    const other = await createKey(service, service.owner, 'made elsewhere', ['pin', 'unpin']);
    const row = keysTable().getByRole('row', { name: /made elsewhere/ });
    await row.waitFor();

    await row.getByRole('button', { name: 'Delete key made elsewhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the key “made elsewhere”?' });
    await dialog.waitFor();
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await axeCheck(page, 'Keys, delete dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await keyNames()).toContain('made elsewhere');
    await row.getByRole('button', { name: 'Delete key made elsewhere' }).click();
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.waitFor({ state: 'detached' });
    await page.getByText('Deleted the key “made elsewhere”.').waitFor();
    expect(await keyNames()).not.toContain('made elsewhere');
    expect((await call(service, 'GET', '/api/v0/keys', { key: other })).status).toBe(401);

    // Deleted elsewhere: it goes by itself.
    await createKey(service, service.owner, 'short-lived', ['read']);
    await keysTable()
      .getByRole('row', { name: /short-lived/ })
      .waitFor();
    expect((await service.call('DELETE', '/api/v0/key', { body: { name: 'short-lived' } })).status).toBe(200);
    await keysTable()
      .getByRole('row', { name: /short-lived/ })
      .waitFor({ state: 'detached' });

    // This window's own session: refused, with the reason, and no dialog.
    const mine = sessionsTable().getByRole('row').filter({ hasText: 'This window' });
    const myName = (await mine.getByText(/^Browser session/).textContent()) ?? '';
    await mine.getByRole('button', { name: /^Revoke / }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `“${myName}” is this window's own session. To end it, use Sign out at the top right.` })
      .waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Another session: revoked, and its key stops working.
    const second = await anotherSession();
    const secondRow = sessionsTable()
      .getByRole('row', { name: new RegExp(second.name.replace(/[()]/g, '\\$&')) })
      .filter({ hasNotText: 'This window' });
    await secondRow.waitFor();
    await secondRow.getByRole('button', { name: /^Revoke / }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke this browser session?' });
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await revoke.waitFor({ state: 'hidden' });
    await secondRow.waitFor({ state: 'detached' });
    expect((await call(service, 'GET', '/api/v0/keys', { key: second })).status).toBe(401);
    expect((await service.call('GET', '/api/v0/keys')).status).toBe(200);
  });

  it('revokes all browser sessions after a confirmation that can be cancelled: every one stops working, access keys go on', async () => {
    await stubBridge(context, { ownerKey: service.owner });
    await page.goto(`${service.url}/keys`);
    await keysTable().getByRole('row').nth(1).waitFor();
    const sessions = [await anotherSession(), await anotherSession()];
    // Two sessions made in the same minute are "Browser session … UTC" and "… UTC (2)": the row's name starts
    // with the session's own and no suffix follows it.
    for (const session of sessions)
      await sessionsTable()
        .getByRole('row', { name: new RegExp(`^${session.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?! \\()`) })
        .waitFor();
    const kept = await createKey(service, service.owner, 'kept through revoke all', ['read']);

    const revokeAll = page.getByRole('button', { name: 'Revoke all browser sessions' });
    await revokeAll.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke all browser sessions?' });
    await dialog.waitFor();
    const count = (await keysOf()).filter((key) => key.session).length;
    await dialog
      .getByText(`Every window signed in with a one-time link (${count} sessions) is signed out at its next request. Access keys go on working.`)
      .waitFor();
    // The window runs on the owner key here: it stays signed in.
    expect(await dialog.getByText('This window is one of them').count()).toBe(0);
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await axeCheck(page, 'Keys, revoke all dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('button:focus', { hasText: 'Revoke all browser sessions' }).waitFor();
    expect((await keysOf()).filter((key) => key.session)).toHaveLength(count);
    await screenshots(page, 'keys-revoke-all');

    await revokeAll.click();
    await dialog.getByRole('button', { name: 'Revoke all' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`Revoked ${count} browser sessions.`).waitFor();
    await sessionsTable().getByText('No browser sessions').waitFor();
    await revokeAll.waitFor({ state: 'detached' });
    expect((await keysOf()).filter((key) => key.session)).toEqual([]);
    for (const session of sessions) expect((await call(service, 'GET', '/api/v0/keys', { key: session })).status).toBe(401);
    expect((await call(service, 'GET', '/api/v0/stats', { key: kept })).status).toBe(403);
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
  });

  it('revoking all from a window signed in by link signs that window out too, and says so', async () => {
    await signIn(page, service);
    await openKeys();
    await sessionsTable().getByRole('row').filter({ hasText: 'This window' }).waitFor();
    await page.getByRole('button', { name: 'Revoke all browser sessions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke all browser sessions?' });
    await dialog.getByText('This window is one of them: it signs out too.').waitFor();
    await dialog.getByRole('button', { name: 'Revoke all' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page
      .getByText(/^Revoked \d+ browser sessions?, this window's too\. Sign in again with a new link from `pinfold open`, or with an access key\.$/)
      .waitFor();
    expect(await page.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')).toBeNull();
    expect((await keysOf()).filter((key) => key.session)).toEqual([]);
  });

  it('refuses to delete the key the window is signed in with, and says why; a user without sessions sees how to get one', async () => {
    const user = await freeUser(service);
    await page.goto(`${service.url}/keys`);
    await signInWithKey(page, user.key);
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    const row = keysTable().getByRole('row', { name: /e2e/ });
    await row.getByText('This window').waitFor();
    await sessionsTable().getByText('No browser sessions').waitFor();
    await row.getByRole('button', { name: 'Delete key e2e' }).click();
    await page.getByRole('alert').filter({ hasText: 'This window is signed in with “e2e”, so it cannot delete it. Sign in with another admin key' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await keyNames(user.key)).toEqual(['e2e']);
    await axeCheck(page, 'Keys, own key refused');
    await screenshots(page, 'keys-refused');
  });

  it('works from the keyboard alone: create, pick permissions, submit, copy, done', async () => {
    await signIn(page, service);
    await openKeys();
    await page.getByRole('button', { name: 'Create key' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('keyboard key');
    // Name → Admin → Read: Tab moves through the form in reading order.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await permission('Read').isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Key “keyboard key” created' });
    await panel.waitFor();
    // Focus is on the panel's heading, so the next Tab reaches its Copy buttons.
    await panel.getByRole('heading', { name: 'Key “keyboard key” created' }).and(page.locator(':focus')).waitFor();
    const created = (await keysOf()).find((key) => key.name === 'keyboard key');
    expect(created?.permissions).toEqual(['read'] satisfies Permission[]);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(created?.access_key);
  });

  it('in the desktop app: keeps the secret in the OS keychain when asked, copies it again later, forgets it on delete', async () => {
    await stubBridge(context, { ownerKey: service.owner });
    await page.goto(`${service.url}/keys`);
    await keysTable().getByRole('row').nth(1).waitFor();
    const ownerRow = keysTable().getByRole('row').filter({ hasText: 'This window' });
    await ownerRow.getByRole('button', { name: /^Copy access key of owner-/ }).waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('kept key');
    await permission('Admin').check();
    await page.getByRole('checkbox', { name: 'Keep the secret in the OS keychain' }).check();
    await form().getByRole('button', { name: 'Create key' }).click();
    const panel = page.getByRole('region', { name: 'Key “kept key” created' });
    await panel.getByText('A copy is in the OS keychain, so you can copy it again later from the list.').waitFor();
    const accessKey = (await panel.getByTestId('new-access-key').textContent()) ?? '';
    const secret = (await panel.getByTestId('new-access-secret').textContent()) ?? '';
    expect((await bridgeCalls(page)).filter((each) => each.method === 'keepSecret')).toEqual([{ method: 'keepSecret', args: [accessKey] }]);
    await panel.getByRole('button', { name: 'Done' }).click();

    const row = keysTable().getByRole('row', { name: /kept key/ });
    await row.getByText('Secret in keychain').waitFor();
    await page.evaluate('navigator.clipboard.writeText("")');
    await row.getByRole('button', { name: 'Copy secret of kept key from the keychain' }).click();
    await row.getByRole('status').filter({ hasText: 'Copied the secret of kept key' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await axeCheck(page, 'Keys in the desktop app');
    // At 480 px the table scrolls inside its own region; nothing in it (hidden status text included) widens the page.
    await page.setViewportSize({ width: 480, height: 860 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(480);
    await page.setViewportSize({ width: 1280, height: 860 });
    await screenshots(page, 'keys-desktop');

    await row.getByRole('button', { name: 'Delete key kept key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the key “kept key”?' });
    await dialog.getByText('Its secret is removed from the OS keychain too.').waitFor();
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await bridgeCalls(page)).filter((each) => each.method === 'forgetSecret')).toEqual([{ method: 'forgetSecret', args: [accessKey] }]);

    // The owner key (this window) cannot be deleted here either.
    await ownerRow.getByRole('button', { name: /^Delete key / }).click();
    await page.getByRole('alert').filter({ hasText: 'so it cannot delete it' }).waitFor();
  });

  it('marks the owner key; deleting it says what stops working and needs its name typed (issue 26)', async () => {
    await signIn(page, service);
    await openKeys();
    const owner = (await keysOf()).find((key) => key.access_key === service.owner.access_key);
    if (!owner) throw new Error('no owner key listed');
    expect(owner.owner).toBe(true);
    const ownerRow = keysTable().getByRole('row').filter({ hasText: owner.name });
    await ownerRow.getByText('Owner key', { exact: true }).waitFor();
    // No other key is marked.
    expect(await keysTable().getByText('Owner key', { exact: true }).count()).toBe(1);

    await ownerRow.getByRole('button', { name: `Delete key ${owner.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete the owner key “${owner.name}”?` });
    await dialog.getByText(/every script that reads owner-key\.json use it/).waitFor();
    await dialog.getByText('pinfold sync', { exact: true }).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete key' });
    const typed = dialog.getByRole('textbox', { name: `Type “${owner.name}” to confirm` });
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill(owner.name.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill(owner.name);
    expect(await confirm.isEnabled()).toBe(true);
    await axeCheck(page, 'Keys, delete the owner key');
    await screenshots(page, 'keys-delete-owner');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await keysOf()).some((key) => key.access_key === service.owner.access_key)).toBe(true);

    // Opened again, the dialog starts empty.
    await ownerRow.getByRole('button', { name: `Delete key ${owner.name}` }).click();
    expect(await typed.inputValue()).toBe('');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('in the desktop app: says plainly when the keychain does not keep the secret', async () => {
    await stubBridge(context, { ownerKey: service.owner, keychainWorks: false });
    await page.goto(`${service.url}/keys`);
    await keysTable().getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('not kept');
    await permission('Read').check();
    await page.getByRole('checkbox', { name: 'Keep the secret in the OS keychain' }).check();
    await form().getByRole('button', { name: 'Create key' }).click();
    const panel = page.getByRole('region', { name: 'Key “not kept” created' });
    await panel
      .getByRole('alert')
      .filter({ hasText: 'The OS keychain did not keep the secret (it refused to store it). Copy it now: this is the only time it is shown.' })
      .waitFor();
    await panel.getByRole('button', { name: 'Done' }).click();
    const row = keysTable().getByRole('row', { name: /not kept/ });
    await row.waitFor();
    expect(await row.getByText('Secret in keychain').count()).toBe(0);
  });
});
