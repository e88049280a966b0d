// @vitest-environment jsdom
/**
 * The Settings page in the window against a scripted service: the service's facts while they load, for
 * the owner, for another account (403) and when the service refuses them; the settings of settings.json
 * loading, saved through the request cache (the form shows the service's answer, not asked for again), a
 * refused value with the service's reason beside its field, a pinned one disabled with its flag, a saved
 * port that waits for a restart; garbage collection's result and its refusal in the dialog. No event changes what this page
 * shows, so there is no live case.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceFacts, ServiceSettingsValues, SettingsView, SettingView } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { standInForDialogs } from './dialog-stand-in.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const FACTS_PATH = 'GET /api/v0/service';
const SETTINGS_PATH = 'GET /api/v0/settings';
const SAVE_PATH = 'POST /api/v0/settings';
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
const setting = <T,>(value: T, applies: SettingView<T>['applies'] = 'now'): SettingView<T> => ({
  value,
  saved: value,
  default: value,
  pinned_by: null,
  applies,
  restart_required: false,
});
const SETTINGS: SettingsView = {
  settings: {
    cid_profile: setting<ServiceSettingsValues['cid_profile']>('unixfs-v1-2025'),
    gc_interval_seconds: setting(3600),
    gc_grace_seconds: setting(600),
    fetch_from: setting([GATEWAY]),
    routing: setting(['https://routing.example']),
    offline: setting(false),
    port: setting(5080, 'restart'),
    public_gateway: setting(false, 'restart'),
    launch_at_login: setting<boolean | null>(null, 'desktop'),
    theme: setting<ServiceSettingsValues['theme']>('system'),
    welcome_seen: setting(true),
  },
  restart_required: false,
};

/** SETTINGS with one setting changed; restart_required follows it. */
function withSetting<K extends keyof ServiceSettingsValues>(name: K, change: Partial<SettingView<ServiceSettingsValues[K]>>): SettingsView {
  const settings = { ...SETTINGS.settings, [name]: { ...SETTINGS.settings[name], ...change } };
  return { settings, restart_required: Object.values(settings).some((one) => one.restart_required) };
}

let service: ScriptedService;
beforeEach(async () => {
  standInForDialogs();
  service = await startScriptedService();
  serveSignedInWindow(service);
  service.route(FACTS_PATH, dataAnswer(FACTS));
  service.route(SETTINGS_PATH, dataAnswer(SETTINGS));
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
    service.route(SETTINGS_PATH, errorAnswer('permission', 'the settings are the owner’s'));
    renderApp(service, '/settings');
    const section = await serviceSection();
    await within(section).findByText("The service's details and garbage collection are shown to the owner account only.");
    expect(screen.queryByRole('button', { name: 'Run garbage collection' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'IPFS network' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Storage' })).toBeNull();
    expect(screen.getByText(/The choice is kept in this browser\./)).toBeTruthy();
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

describe('Settings page: the settings of settings.json', () => {
  const gateways = (section: HTMLElement) => within(section).getByLabelText<HTMLTextAreaElement>('Fetch from these gateways', { exact: false });
  const sentTo = (path: string) => service.seen.filter((seen) => `${seen.method} ${new URL(seen.url, service.url).pathname}` === path);

  it('says it is loading the settings, then shows each saved value', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(SETTINGS_PATH, () => held.promise);
    renderApp(service, '/settings');
    await screen.findByRole('region', { name: 'Service settings' }, PAGE_LOAD);
    held.resolve(dataAnswer(SETTINGS));
    const section = await networkSection();
    await waitFor(() => expect(gateways(section).value).toBe(GATEWAY));
    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(within(storage).getByLabelText<HTMLInputElement>('Garbage collection every (seconds)', { exact: false }).value).toBe('3600');
    expect(within(storage).getByLabelText<HTMLSelectElement>('CID profile', { exact: false }).value).toBe('unixfs-v1-2025');
    expect(screen.queryByRole('region', { name: 'Service settings' })).toBeNull();
  });

  it('saves a change and shows what the service answered, without asking for the settings again', async () => {
    const other = 'https://other.example';
    service.route(SAVE_PATH, dataAnswer(withSetting('fetch_from', { value: [other], saved: [other] })));
    renderApp(service, '/settings');
    const section = await networkSection();
    await waitFor(() => expect(gateways(section).value).toBe(GATEWAY));
    const save = within(section).getByRole('button', { name: 'Save network settings' });
    expect(save.hasAttribute('disabled')).toBe(true);

    fireEvent.change(gateways(section), { target: { value: ` ${other} \n\n` } });
    expect(save.hasAttribute('disabled')).toBe(false);
    const loadsBefore = requestsTo(service, SETTINGS_PATH);
    fireEvent.click(save);
    await screen.findByText('IPFS network: saved and applied.');
    expect(gateways(section).value).toBe(other);
    expect(save.hasAttribute('disabled')).toBe(true);
    expect(JSON.parse(sentTo(SAVE_PATH)[0]?.body ?? '{}')).toEqual({ fetch_from: [other] });
    expect(requestsTo(service, SETTINGS_PATH)).toBe(loadsBefore);
  });

  it("puts the service's reason for a bad value beside its field, and keeps what was typed", async () => {
    service.route(
      SAVE_PATH,
      errorAnswer('bad_input', 'gc_grace_seconds: a whole number of seconds from 0 to 2147483 is required', { param: 'gc_grace_seconds' }),
    );
    renderApp(service, '/settings');
    const storage = await screen.findByRole('region', { name: 'Storage' }, PAGE_LOAD);
    const grace = within(storage).getByLabelText<HTMLInputElement>('Keep new blocks for (seconds)', { exact: false });
    fireEvent.change(grace, { target: { value: 'soon' } });
    fireEvent.click(within(storage).getByRole('button', { name: 'Save storage settings' }));
    await waitFor(() => expect(grace.getAttribute('aria-invalid')).toBe('true'));
    const described = (grace.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
    expect(described.join(' ')).toMatch(/from 0 to 2147483 is required/);
    expect(grace.value).toBe('soon');
    expect(JSON.parse(sentTo(SAVE_PATH)[0]?.body ?? '{}')).toEqual({ gc_grace_seconds: 'soon' });
  });

  it('disables a setting a flag pins and names the flag; a saved port that waits for a restart says so', async () => {
    let view = withSetting('port', { value: 5080, saved: 5090, pinned_by: null, restart_required: true });
    view = { ...view, settings: { ...view.settings, gc_interval_seconds: { ...view.settings.gc_interval_seconds, value: 60, pinned_by: '--gc-interval' } } };
    service.route(SETTINGS_PATH, dataAnswer(view));
    renderApp(service, '/settings');
    const storage = await screen.findByRole('region', { name: 'Storage' }, PAGE_LOAD);
    const interval = within(storage).getByLabelText<HTMLInputElement>('Garbage collection every (seconds)', { exact: false });
    expect(interval.disabled).toBe(true);
    expect(within(storage).getByText(/for this run \(in use: 60\)/).textContent).toContain('Set by --gc-interval for this run');
    const server = screen.getByRole('region', { name: 'Server' });
    expect(within(server).getByTestId('restart-note').textContent).toBe(
      'Restart to apply: 5090 is saved, 5080 is in use. It applies at the next start of pinfold serve.',
    );
    expect(within(server).getByLabelText<HTMLInputElement>('Port', { exact: false }).disabled).toBe(false);
  });

  it('says why the settings could not be loaded, and offers no form', async () => {
    service.route(SETTINGS_PATH, errorAnswer('internal', 'settings.json is unreadable'));
    renderApp(service, '/settings');
    const section = await screen.findByRole('region', { name: 'Service settings' }, PAGE_LOAD);
    await within(section).findByText('The service failed (500): settings.json is unreadable.');
    expect(screen.queryByRole('button', { name: 'Save network settings' })).toBeNull();
  });
});
