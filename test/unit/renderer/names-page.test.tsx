// @vitest-environment jsdom
/**
 * The Names page in the window against a scripted service: what it shows while the list loads, for an
 * account without names, when the service refuses the list (and Retry), and rows that follow `event:
 * name` (a name published elsewhere patched where it stands, the list not asked again; a name deleted
 * elsewhere leaves and the page is loaded again).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, listAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const LIST = 'GET /api/v0/ipns';
const CREATE = 'POST /api/v0/name/create';

const NAME: IpnsRecordView = {
  name: 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8',
  value: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
  alias: 'my site',
  created_at: 1_700_000_000,
  publish_at: 1_700_000_000,
  public: false,
};
const REPUBLISHED = 'bafkreidgvpkjawlxz6sffxzwgooowe5yt7i6wsyg236mfoks77nywkptdq';

let service: ScriptedService;
beforeEach(async () => {
  service = await startScriptedService();
  serveSignedInWindow(service);
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const namesTable = () => screen.findByRole('table', { name: 'Names' }, PAGE_LOAD);
/** The full CIDs a row shows (a CID is shortened on screen and kept whole in its title). */
const pointedAt = (table: HTMLElement) => [...table.querySelectorAll('.cid-value')].map((cid) => cid.getAttribute('title'));

describe('Names page', () => {
  it('says it is loading while the list is on its way, then shows the names', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(LIST, () => held.promise);
    renderApp(service, '/names');
    const table = await namesTable();
    await within(table).findByText('Loading…');
    expect(within(table).queryByText('No names yet')).toBeNull();

    held.resolve(listAnswer([NAME], 1));
    await within(table).findAllByText('my site');
    expect(within(table).queryByText('Loading…')).toBeNull();
    expect(screen.getByTestId('names-summary').textContent).toBe('1 name.');
  });

  it('shows an account without names what to do first', async () => {
    service.route(LIST, listAnswer([], 0));
    renderApp(service, '/names');
    const table = await namesTable();
    await within(table).findByText('No names yet');
    expect(within(table).getByRole('button', { name: 'Create name' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Import key' })).toBeTruthy();
    // Nothing to search or page through yet.
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('says why the list could not be loaded, and Retry loads it', async () => {
    service.route(LIST, errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/names');
    const table = await namesTable();
    await within(table).findByText('The service failed (500): the database is locked.');

    service.route(LIST, listAnswer([NAME], 1));
    fireEvent.click(within(table).getByRole('button', { name: 'Retry' }));
    await within(table).findAllByText('my site');
    expect(within(table).queryByText(/the database is locked/)).toBeNull();
  });

  it('follows event: name: a name published elsewhere is patched in its row without asking for the list again', async () => {
    service.route(LIST, listAnswer([NAME], 1));
    renderApp(service, '/names');
    const table = await namesTable();
    await within(table).findAllByText('my site');
    expect(pointedAt(table)).not.toContain(REPUBLISHED);

    await service.sendEvent('name', { ...NAME, value: REPUBLISHED, alias: 'my new site' });
    await within(table).findAllByText('my new site');
    expect(pointedAt(table)).toContain(REPUBLISHED);
    expect(requestsTo(service, LIST)).toBe(1);
  });

  it('follows event: name: a name deleted elsewhere leaves the list, which is loaded again', async () => {
    service.route(LIST, listAnswer([NAME], 1));
    renderApp(service, '/names');
    const table = await namesTable();
    await within(table).findAllByText('my site');

    service.route(LIST, listAnswer([], 0));
    await service.sendEvent('name', { name: NAME.name, removed: true });
    await within(table).findByText('No names yet');
    await waitFor(() => expect(requestsTo(service, LIST)).toBe(2));
  });

  it('Create name: a CID that is not one is said under its field and nothing is sent; a refusal stays in the dialog; a success closes it and loads the list again', async () => {
    service.route(LIST, listAnswer([], 0));
    renderApp(service, '/names');
    const table = await namesTable();
    fireEvent.click(await within(table).findByRole('button', { name: 'Create name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create name' });
    const cid = within(dialog).getByLabelText('CID to point at');
    const submit = within(dialog).getByRole('button', { name: 'Create name' });

    fireEvent.change(cid, { target: { value: 'nope' } });
    fireEvent.click(submit);
    await within(dialog).findByText('This is not a CID. A CID looks like bafybei… or Qm….');
    expect(requestsTo(service, CREATE)).toBe(0);

    service.route(CREATE, errorAnswer('plan_limit', 'the plan allows 3 names', { limit: 'ipns' }));
    fireEvent.change(cid, { target: { value: NAME.value } });
    expect(within(dialog).queryByText(/This is not a CID/)).toBeNull();
    fireEvent.click(submit);
    await within(dialog).findByText(/Your plan's limit on .* is reached/);
    expect(screen.getByRole('dialog', { name: 'Create name' })).toBe(dialog);

    service.route(CREATE, dataAnswer({ name: NAME.name, value: NAME.value }));
    service.route(LIST, listAnswer([NAME], 1));
    fireEvent.click(submit);
    await within(table).findAllByText('my site');
    expect(screen.queryByRole('dialog', { name: 'Create name' })).toBeNull();
    expect(new URL(service.seen.find((seen) => seen.url.startsWith('/api/v0/name/create'))?.url ?? '', 'http://x').searchParams.get('arg')).toBe(NAME.value);
  });
});
