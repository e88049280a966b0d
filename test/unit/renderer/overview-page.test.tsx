// @vitest-environment jsdom
/**
 * The Overview in the window against a scripted service: what it shows while the account loads, the
 * first steps of an account with nothing in it, the service's refusal in words, and figures that follow
 * `event: usage` without the stats being asked again. The per-day figures are held back (their charts are
 * the e2e walk's: jsdom draws no canvas).
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../helpers/deferred.js';
import { USAGE } from './fixtures.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const STATS = 'GET /api/v0/stats';

let service: ScriptedService;
let daily: ReturnType<typeof deferred<ScriptedAnswer>>;
beforeEach(async () => {
  service = await startScriptedService();
  serveSignedInWindow(service);
  daily = deferred<ScriptedAnswer>();
  service.route('GET /api/v0/stats/daily', () => daily.promise);
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const usageSection = () => screen.findByRole('region', { name: 'Usage against plan limits' }, PAGE_LOAD);
const shownUsed = (key: string) => within(screen.getByTestId(`usage-${key}`)).getByTestId('used').textContent;

describe('Overview page', () => {
  it('says it is loading while the account is on its way, then shows usage against the limits', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(STATS, () => held.promise);
    renderApp(service, '/overview');
    await screen.findByText('Loading usage…', {}, PAGE_LOAD);
    expect(screen.queryByRole('region', { name: 'Usage against plan limits' })).toBeNull();

    held.resolve(dataAnswer(USAGE));
    await usageSection();
    expect(screen.queryByText('Loading usage…')).toBeNull();
    expect(shownUsed('pinned_count')).toBe('3');
    expect(screen.getByTestId('plan').textContent).toBe('Local');
  });

  it('shows an account with nothing in it its first steps', async () => {
    service.route(STATS, dataAnswer({ ...USAGE, pinned_count: 0, pinned_bytes: 0, ingress: 0, egress: 0, ipns: 0 }));
    renderApp(service, '/overview');
    const steps = await screen.findByRole('region', { name: 'Get started' }, PAGE_LOAD);
    expect(within(steps).getByRole('link', { name: 'Go to Files' }).getAttribute('href')).toBe('/files');
  });

  it('shows an account in use no first steps', async () => {
    renderApp(service, '/overview');
    await usageSection();
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  it('says why the account could not be loaded', async () => {
    service.route(STATS, errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/overview');
    await screen.findByText('The service failed (500): the database is locked.', {}, PAGE_LOAD);
    expect(screen.queryByRole('region', { name: 'Usage against plan limits' })).toBeNull();
  });

  it('says why the figures per day could not be loaded, beside the usage it has', async () => {
    daily.resolve(errorAnswer('internal', 'no figures today'));
    renderApp(service, '/overview');
    const perDay = await screen.findByRole('region', { name: 'Usage per day' }, PAGE_LOAD);
    await within(perDay).findByText('The service failed (500): no figures today.');
    expect(within(perDay).getByText('The figures per day could not be loaded.')).toBeTruthy();
    expect(shownUsed('pinned_count')).toBe('3');
  });

  it('follows event: usage: the figures change without the stats being asked again', async () => {
    renderApp(service, '/overview');
    await usageSection();
    expect(shownUsed('pinned_count')).toBe('3');

    await service.sendEvent('usage', { ...USAGE, pinned_count: 7 });
    await within(screen.getByTestId('usage-pinned_count')).findByText('7');
    expect(requestsTo(service, STATS)).toBe(1);
  });
});
