import { describe, expect, it } from 'vitest';
import { withHistoryBytesRequests } from '../../../main/sync/folder-runners.js';
import type { SyncDomains } from '../../../main/sync/runner.js';

describe("withHistoryBytesRequests (a runner's notices also ask for its history bytes)", () => {
  it('passes every notice on, and asks for the bytes of a folder that was not removed', () => {
    const told: unknown[][] = [];
    const asked: unknown[][] = [];
    const domains = { events: { syncChanged: (...args: unknown[]) => told.push(args) } } as unknown as SyncDomains;
    const wired = withHistoryBytesRequests(domains, { request: (...args: unknown[]) => asked.push(args) });
    wired.events?.syncChanged(1, 'f1');
    wired.events?.syncChanged(1, 'f2', false);
    wired.events?.syncChanged(1, 'f3', true);
    expect(told).toEqual([
      [1, 'f1', undefined],
      [1, 'f2', false],
      [1, 'f3', true],
    ]);
    expect(asked).toEqual([
      [1, 'f1'],
      [1, 'f2'],
    ]);
  });

  it('asks for the bytes even when nobody listens to the event stream', () => {
    const asked: unknown[][] = [];
    const wired = withHistoryBytesRequests({} as unknown as SyncDomains, { request: (...args: unknown[]) => asked.push(args) });
    wired.events?.syncChanged(2, 'f1');
    expect(asked).toEqual([[2, 'f1']]);
  });
});
