/**
 * The Partners page in Chromium against `pinfold serve`: the users a partner created (paged, with the
 * total and the balance), creating one (every bad input beside its field, the service's refusal of a
 * taken ID, nothing created), a user's usage, a plan change with its fee and the balance it leaves
 * (a balance too low: not offered, and the service's 402 said plainly when the balance moved meanwhile),
 * a user's keys (secret shown once, delete), and changes made elsewhere arriving without a reload.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatLimit } from '../../renderer/lib/format.js';
import type { AccessKeyListing, AccountUsage, CreatedAccessKey, PartnerUserSummary, PartnerUserUsage, Plan } from '../../shared/api-types.js';
import { createUser, createUserKey, runCli } from '../helpers/account-api.js';
import { call } from '../helpers/test-server.js';
import { axeCheck, launchBrowser, newContext, screenshots, signIn, signInWithKey, startService, upload, uploadAndPin, type E2eService } from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Made in beforeAll, oldest first: "Listed user 01" … "Listed user 12"; the newest has one pin of 1536 bytes. */
const listed: string[] = [];

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
  for (let i = 1; i <= 12; i++) {
    const uuid = `listed-${String(i).padStart(2, '0')}`;
    const answer = await service.call('POST', '/api/v0/partner/user/create', {
      body: { uuid, name: `Listed user ${String(i).padStart(2, '0')}`, email: `${uuid}@example.com` },
    });
    expect(answer.status, answer.text).toBe(200);
    listed.push(uuid);
  }
  const key = await createUserKey(service, service.owner, 'listed-12', 'seed', ['admin']);
  await uploadAndPin(service, key, new Uint8Array(1536).fill(7));
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

async function statsOf(key: CreatedAccessKey = service.owner): Promise<AccountUsage> {
  return (await service.call<{ data: AccountUsage }>('GET', '/api/v0/stats', { key })).json.data;
}

async function userStats(uuid: string, partner: CreatedAccessKey = service.owner): Promise<PartnerUserUsage> {
  const answer = await service.call<{ data: PartnerUserUsage }>('GET', '/api/v0/partner/user/stats', { key: partner, query: { uuid } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

async function userKeys(uuid: string): Promise<AccessKeyListing[]> {
  return (await service.call<{ data: AccessKeyListing[] }>('GET', '/api/v0/partner/user/keys', { query: { uuid } })).json.data;
}

async function userCount(partner: CreatedAccessKey = service.owner): Promise<number> {
  return (await service.call<{ total: number; data: PartnerUserSummary[] }>('GET', '/api/v0/partner/users', { key: partner, query: { limit: 1 } })).json.total;
}

const usersTable = () => page.getByRole('table', { name: 'Users' });
const summary = () => page.getByTestId('partner-summary');
const heading = (name: string, level: 1 | 2 = 2) => page.getByRole('heading', { level, name, exact: true });

async function openPartners(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Partners' }).click();
  await heading('Partners', 1).waitFor();
  await usersTable().getByRole('row').nth(1).waitFor();
}

/** Opens a user's page by its address, as a bookmark would. */
async function openUser(uuid: string, name: string): Promise<void> {
  await page.goto(`${service.url}/partners?user=${encodeURIComponent(uuid)}`);
  await heading(name).waitFor();
}

describe('Partners', () => {
  it('lists the users newest first with plan and pinned usage, the total and the balance; pages; opens a user by keyboard; back returns', async () => {
    await signIn(page, service);
    await openPartners();
    const total = await userCount();
    const balance = (await statsOf()).token_amount;
    await summary()
      .filter({ hasText: `Balance ${Number(balance).toLocaleString('en-US', { minimumFractionDigits: 2 })}` })
      .waitFor();
    await summary()
      .filter({ hasText: `${total} users` })
      .waitFor();
    const newest = usersTable().getByRole('row').nth(1);
    expect(await newest.getByRole('cell').allTextContents()).toEqual([
      'Listed user 12',
      expect.stringMatching(/^listed-12/),
      'Free',
      '1.5 KiB · 1 pin',
      expect.stringMatching(/^(just now|1 minute ago)$/),
    ]);
    await axeCheck(page, 'Partners');
    await screenshots(page, 'partners');

    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
    await page.getByText(`1–10 of ${total}`).waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(`11–${Math.min(20, total)} of ${total}`).waitFor();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ page: '2', size: '10' });
    await page.reload();
    await page.getByText(`11–${Math.min(20, total)} of ${total}`).waitFor();
    expect(await usersTable().getByRole('link').allTextContents()).toContain('Listed user 02');

    // From the keyboard: the user's name is a link.
    await usersTable().getByRole('link', { name: 'Listed user 02' }).focus();
    await page.keyboard.press('Enter');
    await heading('Listed user 02').waitFor();
    expect(await page.getByTestId('user-uuid').textContent()).toBe('listed-02');
    expect(await page.getByTestId('user-email').textContent()).toBe('listed-02@example.com');
    expect(await page.getByTestId('usage-pinned_bytes').getByTestId('limit').textContent()).toBe('1 GiB');
    await page.getByRole('table', { name: 'Access keys of Listed user 02' }).getByText('No keys yet').waitFor();
    await page.goBack();
    await page.getByText(`11–${Math.min(20, total)} of ${total}`).waitFor();
    await page.getByRole('link', { name: 'Listed user 02' }).click();
    await page.getByRole('link', { name: 'All users' }).click();
    await page.getByText(`11–${Math.min(20, total)} of ${total}`).waitFor();
  });

  it('creates a user; says what is wrong beside each field and creates nothing; shows the refusal of a taken ID', async () => {
    await signIn(page, service);
    await openPartners();
    const before = await userCount();
    await page.getByRole('button', { name: 'Create user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    const submit = form.getByRole('button', { name: 'Create user' });
    const suggested = await form.getByRole('textbox', { name: 'User ID' }).inputValue();
    expect(suggested).toMatch(/^[0-9a-f-]{36}$/);

    await submit.click();
    await form.getByText("Enter the user's name.").waitFor();
    await form.getByText("Enter the user's e-mail address.").waitFor();
    await form.getByRole('textbox', { name: 'Name' }).and(page.locator(':focus')).waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill('Ada Lovelace');
    await form.getByRole('textbox', { name: 'E-mail' }).fill('ada@');
    await form.getByRole('textbox', { name: 'User ID' }).fill('  ');
    await submit.click();
    await form.getByText('Enter an e-mail address such as name@example.com.').waitFor();
    await form.getByText('Enter an ID for the user, such as the one your own system knows it by.').waitFor();
    await axeCheck(page, 'Partners, form errors');
    await screenshots(page, 'partners-form-errors');

    // The service refuses an ID already taken (409), in the form; nothing is created.
    await form.getByRole('textbox', { name: 'E-mail' }).fill('ada@example.com');
    await form.getByRole('textbox', { name: 'User ID' }).fill('listed-01');
    await submit.click();
    await form.getByRole('alert').filter({ hasText: 'Uuid listed-01 is already taken.' }).waitFor();
    expect(await userCount()).toBe(before);

    const uuid = `ada-${randomUUID()}`;
    await form.getByRole('textbox', { name: 'User ID' }).fill(uuid);
    await submit.click();
    await heading('Ada Lovelace').waitFor();
    expect(new URL(page.url()).searchParams.get('user')).toBe(uuid);
    await page.getByText('Created Ada Lovelace on the Free plan.').waitFor();
    expect(await userStats(uuid)).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', plan: 'Free' });
    expect(await userCount()).toBe(before + 1);
  });

  it("changes a user's plan after showing the fee, the balance it leaves and the limits before and after", async () => {
    const uuid = `plan-${randomUUID()}`;
    await createUser(service, service.owner, uuid);
    const name = `user ${uuid}`;
    await signIn(page, service);
    await openUser(uuid, name);
    const before = (await statsOf()).token_amount;

    await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Pro (fee 9.99)' });
    await page.getByRole('button', { name: 'Change plan…' }).click();
    const dialog = page.getByRole('dialog', { name: `Move ${name} to Pro?` });
    await dialog.waitFor();
    const money = (amount: number) => amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(await dialog.getByTestId('plan-quote').textContent()).toBe(
      `Fee, charged now9.99Balance now${money(Number(before))}Balance after${money(Number(before) - 9.99)}`,
    );
    const comparison = dialog.getByRole('table', { name: `Limits of ${name} now and on Pro` });
    const plans = (await call<{ data: Plan[] }>(service, 'GET', '/api/v0/plans', { noTs: true })).json.data;
    const proStorage = formatLimit(plans.find((plan) => plan.name === 'Pro')?.pinned_bytes_limit ?? 0, 'bytes');
    expect(
      await comparison
        .getByRole('row', { name: /^Pinned storage/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['1 GiB', proStorage]);
    await axeCheck(page, 'Partners, plan change');
    await screenshots(page, 'partners-plan');

    await dialog.getByRole('button', { name: 'Move to Pro' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('user-plan').filter({ hasText: 'Pro' }).waitFor();
    expect((await userStats(uuid)).plan).toBe('Pro');
    const after = (await statsOf()).token_amount;
    expect(after).toBe((Number(before) - 9.99).toFixed(2));
    // The balance follows by itself (event: usage).
    await summary()
      .filter({ hasText: `Balance ${money(Number(after))}` })
      .waitFor();
  });

  it('does not offer a plan the balance cannot pay for, follows the balance live, and shows the 402 plainly when it moved unseen', async () => {
    // A partner of its own, with 10.00.
    const partnerUuid = `poor-${randomUUID()}`;
    await createUser(service, service.owner, partnerUuid);
    for (const args of [
      ['account', 'partner', partnerUuid, 'on'],
      ['account', 'credit', partnerUuid, '10.00'],
    ]) {
      const run = await runCli([...args, '--data', service.dataDir]);
      expect(run.code, run.stderr).toBe(0);
    }
    const partner = await createUserKey(service, service.owner, partnerUuid, 'admin', ['admin']);
    const userA = `poor-user-a-${partnerUuid}`;
    const userB = `poor-user-b-${partnerUuid}`;

    // A partner with no users yet is told what to do; users made elsewhere then appear by themselves.
    await page.goto(`${service.url}/partners`);
    await signInWithKey(page, partner);
    await usersTable().getByText('No users yet').waitFor();
    await axeCheck(page, 'Partners, no users');
    await screenshots(page, 'partners-empty');
    for (const uuid of [userA, userB]) await createUser(service, partner, uuid);
    await usersTable()
      .getByRole('link', { name: `user ${userA}` })
      .waitFor();
    await usersTable()
      .getByRole('link', { name: `user ${userB}` })
      .waitFor();
    await summary().filter({ hasText: 'Balance 10.00' }).waitFor();

    // A window that hears no events: the balance it knows is the one it loaded.
    const blind = await context.newPage();
    await blind.route('**/api/v0/events?*', () => undefined);
    await blind.goto(`${service.url}/partners?user=${userA}`);
    await signInWithKey(blind, partner);
    await blind.getByRole('heading', { level: 2, name: `user ${userA}`, exact: true }).waitFor();
    await blind.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Pro (fee 9.99)' });
    await blind.getByRole('button', { name: 'Change plan…' }).click();
    const dialog = blind.getByRole('dialog', { name: `Move user ${userA} to Pro?` });
    expect(await dialog.getByTestId('plan-quote').textContent()).toBe('Fee, charged now9.99Balance now10.00Balance after0.01');
    // Another client spends the balance meanwhile; the service refuses with 402 and changes nothing.
    expect((await service.call('POST', '/api/v0/partner/user/update-plan', { key: partner, body: { uuid: userB, plan_id: 2 } })).status).toBe(200);
    await dialog.getByRole('button', { name: 'Move to Pro' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Balance too low for the Pro plan fee of 9.99. Nothing was charged.' }).waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect((await userStats(userA, partner)).plan).toBe('Free');
    expect((await statsOf(partner)).token_amount).toBe('5.01');
    await screenshots(blind, 'partners-plan-refused');
    await blind.close();

    // The window that hears events: Pro is not offered at 5.01; Starter is, until the balance drops under it.
    await summary().filter({ hasText: 'Balance 5.01' }).waitFor();
    await usersTable()
      .getByRole('link', { name: `user ${userA}` })
      .click();
    await heading(`user ${userA}`).waitFor();
    await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Pro (fee 9.99)' });
    await page.getByRole('button', { name: 'Change plan…' }).click();
    const pro = page.getByRole('dialog', { name: `Move user ${userA} to Pro?` });
    await pro.getByTestId('plan-short').filter({ hasText: 'The balance (5.01) does not cover the 9.99 fee' }).waitFor();
    expect(await pro.getByTestId('plan-quote').textContent()).toBe('Fee, charged now9.99Balance now5.01Balance afterNot enough');
    expect(await pro.getByRole('button', { name: 'Move to Pro' }).isDisabled()).toBe(true);
    await axeCheck(page, 'Partners, balance too low');
    await pro.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Starter (fee 4.99)' });
    await page.getByRole('button', { name: 'Change plan…' }).click();
    const starter = page.getByRole('dialog', { name: `Move user ${userA} to Starter?` });
    expect(await starter.getByTestId('plan-quote').textContent()).toBe('Fee, charged now4.99Balance now5.01Balance after0.02');
    expect((await service.call('POST', '/api/v0/partner/user/update-plan', { key: partner, body: { uuid: userB, plan_id: 2 } })).status).toBe(200);
    await starter.getByTestId('plan-short').waitFor();
    expect(await starter.getByTestId('plan-quote').textContent()).toBe('Fee, charged now4.99Balance now0.02Balance afterNot enough');
    expect(await starter.getByRole('button', { name: 'Move to Starter' }).isDisabled()).toBe(true);
    await screenshots(page, 'partners-plan-short');
  });

  it("creates a user's key with the secret shown once, deletes it, and follows changes made elsewhere without a reload", async () => {
    const uuid = `keys-${randomUUID()}`;
    await createUser(service, service.owner, uuid);
    const name = `user ${uuid}`;
    await signIn(page, service);
    await openUser(uuid, name);
    const keys = page.getByRole('table', { name: `Access keys of ${name}` });
    await keys.getByText('No keys yet').waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    const form = page.getByRole('form', { name: 'New access key' });
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.getByText('Enter a name for the key, such as the script or app that will use it.').waitFor();
    expect(await userKeys(uuid)).toEqual([]);
    await form.getByRole('textbox', { name: 'Name' }).fill('their app');
    await form.getByRole('checkbox', { name: 'Read', exact: true }).check();
    await form.getByRole('checkbox', { name: 'Write', exact: true }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const panel = page.getByRole('region', { name: `Key “their app” created for ${name}` });
    await panel.waitFor();
    const accessKey = (await panel.getByTestId('new-access-key').textContent()) ?? '';
    const secret = (await panel.getByTestId('new-access-secret').textContent()) ?? '';
    expect(await userKeys(uuid)).toEqual([{ name: 'their app', access_key: accessKey, permissions: ['read', 'write'] }]);
    // The user's own key, with the secret shown: the service knows it (no admin: 403, not 401).
    const withIt = await call(service, 'GET', '/api/v0/stats', { key: { access_key: accessKey, access_secret: secret } });
    expect(withIt.status).toBe(403);
    // And the user's pinning service token with it (contract section 11).
    expect(await panel.getByTestId('new-psa-token').textContent()).toBe(`${accessKey}.${secret}`);
    await axeCheck(page, 'Partners, user key created');
    await screenshots(page, 'partners-user-key');
    await panel.getByRole('button', { name: 'Done' }).click();

    const row = keys.getByRole('row', { name: /their app/ });
    expect(await row.getByText(/^(Read|Write)$/).allTextContents()).toEqual(['Read', 'Write']);
    await row.getByRole('button', { name: 'Delete key their app' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete the key “their app” of ${name}?` });
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await userKeys(uuid)).toEqual([]);

    // Elsewhere: a key made for the user, the user's own upload, a plan change: all show by themselves.
    const made = await createUserKey(service, service.owner, uuid, 'made elsewhere', ['admin']);
    await keys.getByRole('row', { name: /made elsewhere/ }).waitFor();
    await upload(service, made, new Uint8Array(4096).fill(1));
    await page.getByTestId('usage-ingress').getByTestId('used').filter({ hasText: '4 KiB' }).waitFor();
    expect((await service.call('POST', '/api/v0/partner/user/update-plan', { body: { uuid, plan_id: 2 } })).status).toBe(200);
    await page.getByTestId('user-plan').filter({ hasText: 'Starter' }).waitFor();

    // And on the list: a user created elsewhere appears at the top.
    await page.getByRole('link', { name: 'All users' }).click();
    const fresh = `fresh-${randomUUID()}`;
    await createUser(service, service.owner, fresh);
    await usersTable()
      .getByRole('row')
      .nth(1)
      .getByRole('link', { name: `user ${fresh}` })
      .waitFor();
  });
});
