import { describe, expect, it } from 'vitest';
import { createWindowGuard } from '../../../main/desktop/window-guard.js';
import { FakeWindow } from '../../helpers/fake-guarded-window.js';

const SERVICE = 'http://127.0.0.1:5080';

/** The service's verified runs as desktop-service.ts tells them, moved by hand. */
function runs() {
  let run: number | null = null;
  const listeners = new Set<() => void>();
  return {
    verifiedRun: () => run,
    onStateChange(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set(next: number | null) {
      run = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

function setup(firstRun: number | null = 1) {
  const service = runs();
  service.set(firstRun);
  const made: FakeWindow[] = [];
  const forgotten: string[] = [];
  /** Forgetting completes when the test says so. */
  const pending: Array<() => void> = [];
  const guard = createWindowGuard<FakeWindow>({
    origin: SERVICE,
    service,
    create: (page) => {
      const win = new FakeWindow(SERVICE, page);
      made.push(win);
      return win;
    },
    forgetOrigin: (origin) =>
      new Promise<void>((resolve) => {
        forgotten.push(origin);
        pending.push(resolve);
      }),
    onError: (error) => {
      throw error;
    },
  });
  const forget = async () => {
    for (const done of pending.splice(0)) done();
    // The guard goes on once the forgetting's promise settled.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { guard, service, made, forgotten, forget };
}

describe('the window guard', () => {
  it("opens the window only once the run is verified and the origin's leftovers are forgotten", async () => {
    const { guard, made, forgotten, forget } = setup();
    guard.open();
    expect(made).toEqual([]);
    expect(guard.allowsRequest(`${SERVICE}/`)).toBe(false);
    expect(forgotten).toEqual([SERVICE]);
    await forget();
    expect(made).toHaveLength(1);
    expect(made[0]?.page).toEqual({ path: undefined, hidden: false });
    expect(guard.isTrusted(made[0]?.webContents.id ?? -1)).toBe(true);
    expect(guard.allowsRequest(`${SERVICE}/api/v0/stats?ts=1`)).toBe(true);
  });

  it('cancels every request to the service origin while no run is verified, and only those', async () => {
    const { guard, service, forget } = setup();
    await forget();
    service.set(null);
    for (const url of [`${SERVICE}/`, `${SERVICE}/assets/index.js`, `${SERVICE}/api/v0/sync?ts=1`, `${SERVICE}/gateway-sw.js`]) {
      expect(guard.allowsRequest(url), url).toBe(false);
    }
    expect(guard.allowsRequest('https://github.com/')).toBe(true);
    expect(guard.allowsRequest('http://127.0.0.1:5081/')).toBe(true);
  });

  it('the bridge trusts no window while the service is down: not the old one, not a new one', async () => {
    const { guard, service, made, forget } = setup();
    guard.open();
    await forget();
    const [first] = made;
    service.set(null);
    expect(guard.isTrusted(first?.webContents.id ?? -1)).toBe(false);
    // The tray's Open while it is down shows the window as it is: no load, no new window.
    guard.open('/settings');
    expect(made).toHaveLength(1);
    expect(first?.loaded).toEqual([]);
    expect(first?.calls).toEqual(['show', 'focus']);
  });

  it('replaces the window of an earlier run whole when a new run is verified: where it was, on its page, as visible as it was', async () => {
    const { guard, service, made, forget } = setup();
    guard.open('/sync/4f1c');
    await forget();
    const [first] = made;
    if (!first) throw new Error('no window');
    first.bounds = { x: 40, y: 50, width: 900, height: 600 };
    // A page a squatter got loaded into it in the moment between the crash and the main process hearing of it.
    service.set(null);
    first.url = `${SERVICE}/overview`;
    service.set(2);
    // Not trusted, and nothing loads, until the leftovers are forgotten.
    expect(guard.isTrusted(first.webContents.id)).toBe(false);
    expect(guard.allowsRequest(`${SERVICE}/`)).toBe(false);
    await forget();
    expect(first.destroyed).toBe(true);
    expect(made).toHaveLength(2);
    const second = made[1];
    expect(second?.page).toEqual({ path: '/overview', hidden: false });
    expect(second?.bounds).toEqual({ x: 40, y: 50, width: 900, height: 600 });
    expect(guard.isTrusted(first.webContents.id)).toBe(false);
    expect(guard.isTrusted(second?.webContents.id ?? -1)).toBe(true);
    expect(guard.window()).toBe(second);
  });

  it('a hidden window comes back hidden; a page asked for meanwhile is the one it opens on, shown', async () => {
    const { guard, service, made, forget } = setup();
    guard.open();
    await forget();
    const [first] = made;
    if (first) first.visible = false;
    service.set(null);
    service.set(2);
    await forget();
    expect(made[1]?.page).toEqual({ path: '/', hidden: true });
    service.set(null);
    guard.open('/sync/abc');
    service.set(3);
    await forget();
    expect(made[2]?.page).toEqual({ path: '/sync/abc', hidden: false });
  });

  it('does not carry a page that is not the renderer over to the new window', async () => {
    const { guard, service, made, forget } = setup();
    guard.open();
    await forget();
    const [first] = made;
    if (first) first.url = `${SERVICE}/ipfs/bafkqaaa`;
    service.set(null);
    service.set(2);
    await forget();
    expect(made[1]?.page.path).toBeUndefined();
  });

  it('within a run, Open shows the window and moves it to the page asked for', async () => {
    const { guard, made, forget } = setup();
    guard.open();
    await forget();
    guard.open('/pins?cid=bafkqaaa');
    guard.open('/ipfs/bafkqaaa');
    expect(made).toHaveLength(1);
    expect(made[0]?.loaded).toEqual([`${SERVICE}/pins?cid=bafkqaaa`, `${SERVICE}/`]);
  });

  it('a run lost while its leftovers are forgotten opens nothing; the next run does', async () => {
    const { guard, service, made, forget } = setup();
    guard.open();
    service.set(null);
    await forget();
    expect(made).toEqual([]);
    expect(guard.allowsRequest(`${SERVICE}/`)).toBe(false);
    service.set(2);
    await forget();
    expect(made).toHaveLength(1);
    expect(guard.isTrusted(made[0]?.webContents.id ?? -1)).toBe(true);
  });

  it('a closed window is made again on the next Open', async () => {
    const { guard, made, forget } = setup();
    guard.open();
    await forget();
    made[0]?.close();
    expect(guard.window()).toBeNull();
    expect(guard.isTrusted(made[0]?.webContents.id ?? -1)).toBe(false);
    guard.open();
    expect(made).toHaveLength(2);
    expect(guard.isTrusted(made[1]?.webContents.id ?? -1)).toBe(true);
  });
});
