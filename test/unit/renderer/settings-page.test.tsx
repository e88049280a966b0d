// @vitest-environment jsdom
/**
 * The Settings page in the window against a scripted service: the service's facts while they load, for
 * the owner, for another account (403) and when the service refuses them; the network settings saved
 * through the request cache (the form shows the service's answer, not asked for again) or refused beside
 * the button; garbage collection's result and its refusal in the dialog. No event changes what this page
 * shows, so there is no live case.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkSettingsView, ServiceFacts } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { standInForDialogs } from './dialog-stand-in.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const FACTS_PATH = 'GET /api/v0/service';
const NETWORK_PATH = 'GET /api/v0/settings/network';
const SAVE_PATH = 'POST /api/v0/settings/network';
const GC_PATH = 'POST /api/v0/repo/gc';

const FACTS: ServiceFacts = {
  version: '1.4.0',
  data_dir: '/home/me/.pinfold',
  url: 'http://127.0.0.1:5080',
  gc_interval_seconds: 3600,
  gc_grace_seconds: 600,
  cid_profile: 'unixfs-v1-2025',
  public_gateway: false,
  started_at: 1_700_000_000,
  gc_leader: true,
};

const GATEWAY = 'https://trustless.example';
const NETWORK: NetworkSettingsView = {
  fetch_from: [GATEWAY],
  routing: ['https://routing.example'],
  offline: false,
  saved: { fetch_from: [GATEWAY], routing: ['https://routing.example'], offline: false },
  pinned: { fetch_from: false, routing: false, offline: false },
};

let service: ScriptedService;
beforeEach(async () => {
  standInForDialogs();
  service = await startScriptedService();
  serveSignedInWindow(service);
  service.route(FACTS_PATH, dataAnswer(FACTS));
  service.route(NETWORK_PATH, dataAnswer(NETWORK));
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const serviceSection = () => screen.findByRole('region', { name: 'Service' }, PAGE_LOAD);
const networkSection = () => screen.findByRole('region', { name: 'IPFS network' }, PAGE_LOAD);

describe('Settings page: the service', () => {
  it("says it is loading while the service's facts are on their way, then shows them", async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(FACTS_PATH, () => held.promise);
    renderApp(service, '/settings');
    const section = await serviceSection();
    await within(section).findByText('Loading…');
    expect(screen.queryByRole('region', { name: 'Garbage collection' })).toBeNull();

    held.resolve(dataAnswer(FACTS));
    await within(section).findByText('1.4.0');
    expect(within(section).getByTestId('service-data-dir').textContent).toContain('/home/me/.pinfold');
    expect(within(section).queryByText('Loading…')).toBeNull();
    await screen.findByRole('region', { name: 'Garbage collection' });
  });

  it('tells another account that the details are the owner’s, and offers no garbage collection nor network settings', async () => {
    service.route(FACTS_PATH, errorAnswer('permission', 'the service is the owner’s'));
    renderApp(service, '/settings');
    const section = await serviceSection();
    await within(section).findByText("The service's details and garbage collection are shown to the owner account only.");
    expect(screen.queryByRole('button', { name: 'Run garbage collection' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'IPFS network' })).toBeNull();
    expect(requestsTo(service, NETWORK_PATH)).toBe(0);
  });

  it('says why the facts could not be loaded, and Retry loads them', async () => {
    service.route(FACTS_PATH, errorAnswer('internal', 'the disk is full'));
    renderApp(service, '/settings');
    const section = await serviceSection();
    await within(section).findByText('The service failed (500): the disk is full.');

    service.route(FACTS_PATH, dataAnswer(FACTS));
    fireEvent.click(within(section).getByRole('button', { name: 'Retry' }));
    await within(section).findByText('1.4.0');
    expect(within(section).queryByText(/the disk is full/)).toBeNull();
  });

  it('runs garbage collection after the confirmation and says what it removed; a refusal stays in the dialog', async () => {
    service.route(GC_PATH, errorAnswer('locked', 'a folder import holds the repository'));
    renderApp(service, '/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Run garbage collection' }, PAGE_LOAD));
    const dialog = screen.getByRole('dialog', { name: 'Run garbage collection now?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run now' }));
    await within(dialog).findByText('A folder import holds the repository. Try again in a moment.');
    expect(screen.getByTestId('gc-result').textContent).toBe('Not run from this window yet.');

    service.route(GC_PATH, dataAnswer({ pins_removed: 1, blocks_deleted: 3 }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(screen.getByTestId('gc-result').textContent).toMatch(/: 1 unpinned pin removed, 3 blocks deleted\.$/));
    expect(dialog.hasAttribute('open')).toBe(false);
  });
});

describe('Settings page: the IPFS network', () => {
  const gateways = (section: HTMLElement) => within(section).getByLabelText<HTMLTextAreaElement>('Fetch from these gateways', { exact: false });

  it('saves a change and shows what the service answered, without asking for the settings again', async () => {
    const other = 'https://other.example';
    const saved = { fetch_from: [other], routing: NETWORK.routing, offline: false };
    service.route(SAVE_PATH, dataAnswer({ ...NETWORK, ...saved, saved }));
    renderApp(service, '/settings');
    const section = await networkSection();
    await waitFor(() => expect(gateways(section).value).toBe(GATEWAY));
    const save = within(section).getByRole('button', { name: 'Save network settings' });
    expect(save.hasAttribute('disabled')).toBe(true);

    fireEvent.change(gateways(section), { target: { value: ` ${other} \n\n` } });
    expect(save.hasAttribute('disabled')).toBe(false);
    fireEvent.click(save);
    await screen.findByText('Network settings saved and applied.');
    expect(gateways(section).value).toBe(other);
    expect(save.hasAttribute('disabled')).toBe(true);
    const sent = service.seen.find((seen) => `${seen.method} ${new URL(seen.url, service.url).pathname}` === SAVE_PATH);
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({ fetch_from: [other] });
    expect(requestsTo(service, NETWORK_PATH)).toBe(1);
  });

  it('says beside the button why a change was refused, and keeps it', async () => {
    service.route(SAVE_PATH, errorAnswer('bad_input', 'fetch_from: not an http or https URL', { param: 'fetch_from' }));
    renderApp(service, '/settings');
    const section = await networkSection();
    await waitFor(() => expect(gateways(section).value).toBe(GATEWAY));
    fireEvent.change(gateways(section), { target: { value: 'ftp://nope' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save network settings' }));
    await within(section).findByText(/not an http or https URL/);
    expect(gateways(section).value).toBe('ftp://nope');
  });

  it('says why the network settings could not be loaded', async () => {
    service.route(NETWORK_PATH, errorAnswer('internal', 'settings.json is unreadable'));
    renderApp(service, '/settings');
    const section = await networkSection();
    await within(section).findByText('The service failed (500): settings.json is unreadable.');
    expect(within(section).queryByRole('button', { name: 'Save network settings' })).toBeNull();
  });
});
