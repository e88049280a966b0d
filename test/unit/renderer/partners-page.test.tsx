// @vitest-environment jsdom
/**
 * The Partners page in the window against a scripted service: what it shows while the users load, for a
 * partner without users, when the service refuses the list or a user (and Retry), and what is shown of
 * the users following `event: partner` (a user created elsewhere joins the list; the user open shows its
 * new plan and keys) without a reload of the window.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessKeyListing, PartnerUserSummary, PartnerUserUsage } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { USAGE } from './fixtures.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, listAnswer, startScriptedService, type RoutedAnswer, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const USERS = 'GET /api/v0/partner/users';
const STATS = 'GET /api/v0/partner/user/stats';
const KEYS = 'GET /api/v0/partner/user/keys';

const ADA: PartnerUserSummary = { uuid: 'ada-1', name: 'Ada Lovelace', plan: 'Free', created_at: 1_700_000_000, pinned_bytes: 0, pinned_count: 0 };
const GRACE: PartnerUserSummary = { ...ADA, uuid: 'grace-2', name: 'Grace Hopper', created_at: 1_700_000_100 };
const ADA_STATS: PartnerUserUsage = { ...USAGE, name: 'Ada Lovelace', email: 'ada@example.com', plan: 'Free', next_plan: 'Free' };
const ADA_KEY: AccessKeyListing = { name: 'ada app', access_key: 'ada-key-1', permissions: ['read'] };

let service: ScriptedService;
beforeEach(async () => {
  service = await startScriptedService();
  serveSignedInWindow(service);
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const isProbe = (url: string) => new URL(url, 'http://x').searchParams.get('limit') === '1';

/**
 * The users list answers `answer`; the shell's partner probe (the same path with limit=1) is always
 * answered, so the Partners page is shown whatever the list does.
 */
function serveUsers(answer: RoutedAnswer): void {
  service.route(USERS, (request) => {
    if (isProbe(request.url)) return listAnswer([], 0);
    return typeof answer === 'function' ? answer(request) : answer;
  });
}

/** The requests for the users list (the probe aside). */
const listRequests = () => service.seen.filter((seen) => seen.url.startsWith('/api/v0/partner/users') && !isProbe(seen.url)).length;

const usersTable = () => screen.findByRole('table', { name: 'Users' }, PAGE_LOAD);

describe('Partners page', () => {
  it('says it is loading while the users are on their way, then lists them', async () => {
    const held = deferred<ScriptedAnswer>();
    serveUsers(() => held.promise);
    renderApp(service, '/partners');
    const table = await usersTable();
    await within(table).findByText('Loading…');
    expect(within(table).queryByText('No users yet')).toBeNull();

    held.resolve(listAnswer([ADA], 1));
    await within(table).findByRole('link', { name: 'Ada Lovelace' });
    expect(within(table).queryByText('Loading…')).toBeNull();
    expect(screen.getByTestId('partner-summary').textContent).toContain('1 user');
  });

  it('shows a partner without users what to do first', async () => {
    serveUsers(listAnswer([], 0));
    renderApp(service, '/partners');
    const table = await usersTable();
    await within(table).findByText('No users yet');
    expect(within(table).getByRole('button', { name: 'Create a user' })).toBeTruthy();
  });

  it('says why the users could not be loaded, and Retry loads them', async () => {
    serveUsers(errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/partners');
    const table = await usersTable();
    await within(table).findByText('The service failed (500): the database is locked.');

    serveUsers(listAnswer([ADA], 1));
    fireEvent.click(within(table).getByRole('button', { name: 'Retry' }));
    await within(table).findByRole('link', { name: 'Ada Lovelace' });
    expect(within(table).queryByText(/the database is locked/)).toBeNull();
  });

  it('says why a user could not be shown, and Retry shows it', async () => {
    serveUsers(listAnswer([ADA], 1));
    service.route(STATS, errorAnswer('not_found', 'no user ada-1'));
    service.route(KEYS, dataAnswer([]));
    renderApp(service, `/partners?user=${ADA.uuid}`);
    await screen.findByText('This user could not be shown', {}, PAGE_LOAD);

    service.route(STATS, dataAnswer(ADA_STATS));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
  });

  it('follows event: partner: a user created elsewhere joins the list', async () => {
    serveUsers(listAnswer([ADA], 1));
    renderApp(service, '/partners');
    const table = await usersTable();
    await within(table).findByRole('link', { name: 'Ada Lovelace' });

    serveUsers(listAnswer([GRACE, ADA], 2));
    await service.sendEvent('partner', { uuid: GRACE.uuid });
    await within(table).findByRole('link', { name: 'Grace Hopper' });
    expect(screen.getByTestId('partner-summary').textContent).toContain('2 users');
    expect(listRequests()).toBe(2);
  });

  it('follows event: partner: the user open shows its new plan and its new key', async () => {
    serveUsers(listAnswer([ADA], 1));
    service.route(STATS, dataAnswer(ADA_STATS));
    service.route(KEYS, dataAnswer([]));
    renderApp(service, `/partners?user=${ADA.uuid}`);
    await waitFor(() => expect(screen.getByTestId('user-plan').textContent).toContain('Free'), PAGE_LOAD);
    const keys = await screen.findByRole('table', { name: 'Access keys of Ada Lovelace' });
    await within(keys).findByText('No keys yet');

    service.route(STATS, dataAnswer({ ...ADA_STATS, plan: 'Pro', next_plan: 'Pro' }));
    service.route(KEYS, dataAnswer([ADA_KEY]));
    await service.sendEvent('partner', { uuid: ADA.uuid });
    await waitFor(() => expect(screen.getByTestId('user-plan').textContent).toContain('Pro'));
    await within(keys).findByText('ada app');
    expect(requestsTo(service, STATS)).toBe(2);
  });
});
