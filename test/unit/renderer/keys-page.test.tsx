// @vitest-environment jsdom
/**
 * The Keys page in the window against a scripted service: what it shows while the keys load, for an
 * account without keys or sessions, when the service refuses the list (and Retry), and a key created
 * elsewhere appearing through `event: key` without a reload of the window.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessKeyView } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow, SIGNED_IN } from './render-app.js';
import { dataAnswer, errorAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const LIST = 'GET /api/v0/keys';
const DELETE = 'DELETE /api/v0/key';

const OWN_KEY: AccessKeyView = { name: 'laptop', access_key: SIGNED_IN.accessKey, permissions: ['admin'], session: false };
const DEPLOY_KEY: AccessKeyView = { name: 'deploy script', access_key: 'key-2', permissions: ['read', 'pin'], session: false };
const SESSION: AccessKeyView = { name: 'Browser session 2026-11-28', access_key: 'key-3', permissions: ['admin'], session: true, expires_at: 1_900_000_000 };

let service: ScriptedService;
beforeEach(async () => {
  service = await startScriptedService();
  serveSignedInWindow(service);
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const keysTable = () => screen.findByRole('table', { name: 'Access keys' }, PAGE_LOAD);
const sessionsTable = () => screen.getByRole('table', { name: 'Browser sessions' });

describe('Keys page', () => {
  it('says it is loading while the keys are on their way, then shows keys and sessions apart', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(LIST, () => held.promise);
    renderApp(service, '/keys');
    const table = await keysTable();
    await within(table).findByText('Loading…');
    within(sessionsTable()).getByText('Loading…');
    expect(within(table).queryByText('No access keys yet')).toBeNull();

    held.resolve(dataAnswer([SESSION, DEPLOY_KEY, OWN_KEY]));
    await within(table).findByText('deploy script');
    expect(within(table).getByText('This window')).toBeTruthy();
    expect(within(table).queryByText(SESSION.name)).toBeNull();
    within(sessionsTable()).getByText(SESSION.name);
    expect(within(table).queryByText('Loading…')).toBeNull();
  });

  it('shows an account without keys or sessions what to do first', async () => {
    service.route(LIST, dataAnswer([]));
    renderApp(service, '/keys');
    const table = await keysTable();
    await within(table).findByText('No access keys yet');
    expect(within(table).getByRole('button', { name: 'Create a key' })).toBeTruthy();
    within(sessionsTable()).getByText('No browser sessions');
    expect(screen.queryByRole('button', { name: 'Revoke all browser sessions' })).toBeNull();
  });

  it('says why the keys could not be loaded, and Retry loads them', async () => {
    service.route(LIST, errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/keys');
    const table = await keysTable();
    await within(table).findByText('The service failed (500): the database is locked.');

    service.route(LIST, dataAnswer([DEPLOY_KEY, OWN_KEY]));
    fireEvent.click(within(table).getByRole('button', { name: 'Retry' }));
    await within(table).findByText('deploy script');
    expect(within(table).queryByText(/the database is locked/)).toBeNull();
  });

  it('follows event: key: a key created elsewhere appears, the list asked again once', async () => {
    service.route(LIST, dataAnswer([OWN_KEY]));
    renderApp(service, '/keys');
    const table = await keysTable();
    await within(table).findByText('laptop');

    service.route(LIST, dataAnswer([DEPLOY_KEY, OWN_KEY]));
    await service.sendEvent('key', { access_key: DEPLOY_KEY.access_key });
    await within(table).findByText('deploy script');
    await waitFor(() => expect(requestsTo(service, LIST)).toBe(2));
  });

  it('deletes a key after a confirmation: a refusal stays in the dialog, a success closes it and loads the list again', async () => {
    service.route(LIST, dataAnswer([DEPLOY_KEY, OWN_KEY]));
    renderApp(service, '/keys');
    const table = await keysTable();
    fireEvent.click(await within(table).findByRole('button', { name: 'Delete key deploy script' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the key “deploy script”?' });

    service.route(DELETE, errorAnswer('internal', 'the database is locked'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete key' }));
    await within(dialog).findByText('The service failed (500): the database is locked.');
    expect(dialog.hasAttribute('open')).toBe(true);

    service.route(DELETE, dataAnswer(null));
    service.route(LIST, dataAnswer([OWN_KEY]));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(within(table).queryByText('deploy script')).toBeNull());
    expect(dialog.hasAttribute('open')).toBe(false);
    expect(JSON.parse(service.seen.filter((seen) => seen.method === 'DELETE').at(-1)?.body ?? '{}')).toEqual({ name: 'deploy script' });
    await screen.findByText('Deleted the key “deploy script”.');
  });
});
