// @vitest-environment jsdom
/**
 * The View page in the window against a scripted service. jsdom has no service worker, so the window is
 * as at an address that is not localhost: the page asks the gateway (a HEAD without a key) whether it
 * serves the content to anyone, and shows it in a frame, says why it cannot, or says why it could not
 * tell. (With the worker, in Chromium, the e2e walk test/e2e/view.test.ts.)
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { viewPagePath } from '../../../renderer/lib/view-path.js';
import { deferred } from '../../helpers/deferred.js';
import { PAGE_LOAD, PIN, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { errorAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const CONTENT = `/ipfs/${PIN.cid}`;
const HEAD = `HEAD ${CONTENT}`;
const PUBLIC: ScriptedAnswer = { status: 200, body: '' };

let service: ScriptedService;
beforeEach(async () => {
  service = await startScriptedService();
  serveSignedInWindow(service);
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const frame = () => screen.queryByTitle(`Content of ${CONTENT}`);
/** What the page's alerts say (the shell has alert regions of its own, empty while nothing is wrong). */
const alertText = () =>
  screen
    .queryAllByRole('alert')
    .map((alert) => alert.textContent)
    .join(' ');

describe('View page', () => {
  it('says it is preparing while the gateway is asked, then shows the content of a public gateway in a frame', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(HEAD, () => held.promise);
    renderApp(service, viewPagePath(CONTENT));
    await screen.findByText('Preparing the gateway…', {}, PAGE_LOAD);
    expect(frame()).toBeNull();
    expect(screen.queryByRole('link', { name: /Open in new tab/ })).toBeNull();

    held.resolve(PUBLIC);
    await waitFor(() => expect(frame()).not.toBeNull());
    expect(screen.queryByText('Preparing the gateway…')).toBeNull();
    expect(screen.getByRole('link', { name: /^Open in new tab: / })).toBeTruthy();
    // Asked without a key: the answer is about anyone's link.
    const asked = service.seen.find((seen) => seen.method === 'HEAD');
    expect(asked?.headers['x-access-key']).toBeUndefined();
  });

  it('says why the content cannot be shown here when the gateway needs a key', async () => {
    service.route(HEAD, errorAnswer('unauthenticated', 'an access key is required'));
    renderApp(service, viewPagePath(CONTENT));
    await waitFor(() => expect(alertText()).toContain('Open needs this window at a localhost address'), PAGE_LOAD);
    expect(alertText()).toContain('Copy the path instead.');
    expect(frame()).toBeNull();
  });

  it('says why it could not tell, and Retry asks again', async () => {
    service.route(HEAD, errorAnswer('internal', 'the gateway is stuck'));
    renderApp(service, viewPagePath(CONTENT));
    await screen.findByText(/^Could not check whether this content can be shown: The service failed \(500\)/, {}, PAGE_LOAD);
    expect(frame()).toBeNull();

    service.route(HEAD, PUBLIC);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(frame()).not.toBeNull());
    expect(requestsTo(service, HEAD)).toBe(2);
    expect(screen.queryByText(/Could not check/)).toBeNull();
  });

  it('refuses an address that names no content, without asking the gateway', async () => {
    renderApp(service, viewPagePath('/elsewhere/index.html'));
    await screen.findByRole('heading', { name: 'Cannot show this content' }, PAGE_LOAD);
    expect(screen.getByRole('link', { name: 'Go to Pins' })).toBeTruthy();
    expect(service.seen.some((seen) => seen.method === 'HEAD')).toBe(false);
  });
});
