// @vitest-environment jsdom
/**
 * The Pins page in the window against a scripted service: what it shows while the list loads, for an
 * account without pins, when the service refuses the list, and a row that follows `event: pin` (patched
 * where it stands, the list not asked again; a pin removed elsewhere leaves and the page is loaded again).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../helpers/deferred.js';
import { FACTS } from '../shared/schemas/samples.js';
import { PAGE_LOAD, PIN, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, listAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const LIST = 'GET /api/v0/pin';

let service: ScriptedService;
beforeEach(async () => {
  service = await startScriptedService();
  serveSignedInWindow(service);
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const pinsTable = () => screen.findByRole('table', { name: 'Pins' }, PAGE_LOAD);

describe('Pins page', () => {
  it('says it is loading while the list is on its way, then shows the pins', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(LIST, () => held.promise);
    renderApp(service, '/pins');
    const table = await pinsTable();
    await within(table).findByText('Loading…');
    expect(within(table).queryByText('No pins yet')).toBeNull();

    held.resolve(listAnswer([PIN], 1));
    await within(table).findByText('report.pdf');
    expect(within(table).queryByText('Loading…')).toBeNull();
    expect(screen.getByTestId('pins-summary').textContent).toBe('1 active pin.');
  });

  it('shows an account without pins what to do first', async () => {
    service.route(LIST, listAnswer([], 0));
    renderApp(service, '/pins');
    const table = await pinsTable();
    await within(table).findByText('No pins yet');
    expect(within(table).getByRole('button', { name: 'Add pin' })).toBeTruthy();
    // Nothing to search or page through yet.
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('says why the list could not be loaded, and Retry loads it', async () => {
    service.route(LIST, errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/pins');
    const table = await pinsTable();
    await within(table).findByText('The service failed (500): the database is locked.');

    service.route(LIST, listAnswer([PIN], 1));
    fireEvent.click(within(table).getByRole('button', { name: 'Retry' }));
    await within(table).findByText('report.pdf');
    expect(within(table).queryByText(/the database is locked/)).toBeNull();
  });

  it('follows event: pin: a pin that changed is patched in its row without asking for the list again', async () => {
    const pinning = { ...PIN, status: 'pinning' as const, size: 0 };
    service.route(LIST, listAnswer([pinning], 1));
    renderApp(service, '/pins');
    const table = await pinsTable();
    await within(table).findByText('Pinning');

    await service.sendEvent('pin', PIN);
    await within(table).findByText('Pinned');
    expect(within(table).getByText('2 KiB')).toBeTruthy();
    expect(within(table).queryByText('Pinning')).toBeNull();
    expect(requestsTo(service, LIST)).toBe(1);
  });

  it('asks for active pins by default; All asks for every status and explains an unpinning row (issue 26)', async () => {
    const statuses = () =>
      service.seen.filter((seen) => seen.url.startsWith('/api/v0/pin?')).map((seen) => new URL(seen.url, 'http://x').searchParams.get('status'));
    service.route(LIST, listAnswer([PIN], 1));
    service.route('GET /api/v0/service', dataAnswer({ ...FACTS, gc_interval_seconds: 3600 }));
    renderApp(service, '/pins');
    const table = await pinsTable();
    await within(table).findByText('report.pdf');
    expect(statuses()).toEqual(['active']);

    service.route(LIST, listAnswer([{ ...PIN, status: 'unpinning' }], 1));
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'all' } });
    await within(table).findByText('Unpinning');
    expect(statuses().at(-1)).toBeNull();
    await within(table).findByText('Goes at the next garbage collection (every 1 hour).');
  });

  it('follows event: pin: a pin removed elsewhere leaves the list, which is loaded again', async () => {
    service.route(LIST, listAnswer([PIN], 1));
    renderApp(service, '/pins');
    const table = await pinsTable();
    await within(table).findByText('report.pdf');

    service.route(LIST, listAnswer([], 0));
    await service.sendEvent('pin', { cid: PIN.cid, removed: true });
    await within(table).findByText('No pins yet');
    await waitFor(() => expect(requestsTo(service, LIST)).toBe(2));
  });
});
