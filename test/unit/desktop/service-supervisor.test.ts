import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createServiceSupervisor, type ServiceChild, type SupervisorTimers } from '../../../main/desktop/service-supervisor.js';
import type { ServiceStatus } from '../../../main/desktop/service-supervisor-state.js';
import { utilityServiceChild, type UtilityFork } from '../../../main/desktop/utility-service-process.js';
import type { ParentToService } from '../../../main/service/messages.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';

/** A service process the test drives: what it was sent, and buttons for what it says and does. */
class FakeChild implements ServiceChild {
  readonly sent: ParentToService[] = [];
  killed = false;
  private readonly events = new EventEmitter();
  postMessage(message: ParentToService): void {
    this.sent.push(message);
  }
  onMessage(listener: (message: unknown) => void): void {
    this.events.on('message', listener);
  }
  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.events.on('exit', listener);
  }
  kill(): void {
    this.killed = true;
  }
  say(message: unknown): void {
    this.events.emit('message', message);
  }
  exit(code: number | null, signal: string | null = null): void {
    this.events.emit('exit', code, signal);
  }
}

/** Timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: SupervisorTimers = {
    setTimeout: (callback, ms) => {
      pending.set(++next, { callback, ms });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    pending: () => [...pending.values()].map((timer) => timer.ms),
    fireAll() {
      const due = [...pending.entries()];
      pending.clear();
      for (const [, timer] of due) timer.callback();
    },
  };
}

function setup() {
  const children: FakeChild[] = [];
  const clock = manualTimers();
  const keychain = memoryKeychain();
  const supervisor = createServiceSupervisor({
    launch: () => {
      const child = new FakeChild();
      children.push(child);
      return child;
    },
    keychain: { service: 'Pinfold', entry: keychain.factory },
    timers: clock.timers,
    nowMs: () => 0,
  });
  const seen: ServiceStatus[] = [];
  supervisor.onStateChange((status) => seen.push(status));
  return { children, clock, keychain, supervisor, seen };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the supervisor runner', () => {
  it('reports start and ready; a crash waits the backoff on a timer and starts a new process', () => {
    const { children, clock, supervisor, seen } = setup();
    supervisor.start();
    children[0]?.say({ type: 'ready', url: 'http://127.0.0.1:5080' });
    children[0]?.exit(1);
    expect(clock.pending()).toEqual([1000]);
    expect(children).toHaveLength(1);
    clock.fireAll();
    expect(children).toHaveLength(2);
    children[1]?.say({ type: 'ready', url: 'http://127.0.0.1:5080' });
    expect(seen.map((status) => status.state)).toEqual(['starting', 'running', 'restarting', 'starting', 'running']);
    expect(supervisor.status()).toEqual({ state: 'running', url: 'http://127.0.0.1:5080', recovered: true });
  });

  it('stop sends the stop message and resolves once the process exited; a process that hangs is killed at the deadline', async () => {
    const { children, clock, supervisor } = setup();
    supervisor.start();
    children[0]?.say({ type: 'ready', url: 'http://u:1' });
    let stopped = false;
    const stopping = supervisor.stop().then(() => (stopped = true));
    expect(children[0]?.sent).toEqual([{ type: 'stop' }]);
    expect(clock.pending()).toEqual([15_000]);
    await settle();
    expect(stopped).toBe(false);
    clock.fireAll();
    expect(children[0]?.killed).toBe(true);
    children[0]?.exit(null, 'SIGKILL');
    await stopping;
    expect(supervisor.status()).toEqual({ state: 'stopped' });
  });

  it('stop before any start resolves at once', async () => {
    const { supervisor, children } = setup();
    await supervisor.stop();
    expect(children).toHaveLength(0);
  });

  it("answers the service's keychain requests from the keychain it holds, Pinfold's items only", async () => {
    const { children, keychain, supervisor } = setup();
    supervisor.start();
    const child = children[0] as FakeChild;
    // One at a time, as the service's secrets code asks them.
    for (const request of [
      { id: 1, op: 'set', service: 'Pinfold', account: 'owner-key', value: '{"k":1}' },
      { id: 2, op: 'get', service: 'Pinfold', account: 'owner-key' },
      { id: 3, op: 'get', service: 'Pinfold', account: 'folder-0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e/secret:master' },
      { id: 4, op: 'get', service: 'Other App', account: 'owner-key' },
      { id: 5, op: 'get', service: 'Pinfold', account: 'github-token' },
      { id: 6, op: 'delete', service: 'Pinfold', account: 'owner-key' },
    ]) {
      child.say({ type: 'keychain', ...request });
      await settle();
    }
    expect(child.sent).toEqual([
      { type: 'keychain-result', id: 1, ok: true, value: null },
      { type: 'keychain-result', id: 2, ok: true, value: '{"k":1}' },
      { type: 'keychain-result', id: 3, ok: true, value: null },
      { type: 'keychain-result', id: 4, ok: false, message: 'keychain item "owner-key" of service "Other App" is not one of Pinfold\'s' },
      { type: 'keychain-result', id: 5, ok: false, message: 'keychain item "github-token" of service "Pinfold" is not one of Pinfold\'s' },
      { type: 'keychain-result', id: 6, ok: true, value: true },
    ]);
    keychain.state.locked = true;
    keychain.items.set('Pinfold\u0000owner-key', 'x');
    child.say({ type: 'keychain', id: 7, op: 'get', service: 'Pinfold', account: 'owner-key' });
    await settle();
    expect(child.sent.at(-1)).toEqual({ type: 'keychain-result', id: 7, ok: false, message: expect.stringContaining('unlock prompt was dismissed') as string });
  });

  it('hands the app what the service says of its desktop settings, as it says it', () => {
    const children: FakeChild[] = [];
    const told: Array<boolean | null> = [];
    const supervisor = createServiceSupervisor({
      launch: () => {
        const child = new FakeChild();
        children.push(child);
        return child;
      },
      timers: manualTimers().timers,
      nowMs: () => 0,
      onDesktopSettings: ({ launchAtLogin }) => told.push(launchAtLogin),
    });
    supervisor.start();
    children[0]?.say({ type: 'desktop-settings', launchAtLogin: null });
    children[0]?.say({ type: 'desktop-settings', launchAtLogin: true });
    children[0]?.say({ type: 'desktop-settings', launchAtLogin: 'yes' });
    expect(told).toEqual([null, true]);
    expect(children[0]?.sent).toEqual([]);
  });

  it('drops malformed messages instead of acting on them', () => {
    const { children, supervisor } = setup();
    supervisor.start();
    const child = children[0] as FakeChild;
    for (const junk of [
      null,
      'ready',
      { type: 'ready' },
      { type: 'ready', url: 'javascript:alert(1)' },
      { type: 'keychain', id: -1, op: 'get', service: 'Pinfold', account: 'owner-key' },
      { type: 'nope' },
    ])
      child.say(junk);
    expect(supervisor.status()).toEqual({ state: 'starting' });
    expect(child.sent).toEqual([]);
  });

  it('a launch that throws is a failed start, reported once, not a restart loop', () => {
    const clock = manualTimers();
    const supervisor = createServiceSupervisor({
      launch: () => {
        throw new Error('utility process refused');
      },
      timers: clock.timers,
    });
    supervisor.start();
    expect(supervisor.status()).toEqual({ state: 'crashed', detail: 'The Pinfold service could not start: utility process refused' });
    expect(clock.pending()).toEqual([]);
  });
});

describe('the utility-process adapter', () => {
  it('forks the entry with its arguments, its run token in the environment (not argv), and maps messages, exit, stop and kill', () => {
    const emitter = new EventEmitter();
    const posted: unknown[] = [];
    const forks: unknown[][] = [];
    let softKills = 0;
    const fork = ((modulePath: string, args?: string[], options?: unknown) => {
      forks.push([modulePath, args, options]);
      return Object.assign(emitter, { pid: undefined, postMessage: (message: unknown) => posted.push(message), kill: () => (softKills++, true) });
    }) as unknown as UtilityFork;
    const token = 'T'.repeat(43);
    const child = utilityServiceChild(fork, '/app/dist/main/cli.js', ['serve', '--keychain'], { PINFOLD_RUN_TOKEN: token });
    expect(forks).toEqual([
      [
        '/app/dist/main/cli.js',
        ['serve', '--keychain'],
        { serviceName: 'Pinfold service', stdio: 'inherit', env: { ...process.env, PINFOLD_RUN_TOKEN: token } },
      ],
    ]);
    const messages: unknown[] = [];
    const exits: unknown[] = [];
    child.onMessage((message) => messages.push(message));
    child.onExit((code, signal) => exits.push([code, signal]));
    emitter.emit('message', { type: 'ready', url: 'http://u:1' });
    child.postMessage({ type: 'stop' });
    child.kill();
    emitter.emit('exit', 9);
    expect(messages).toEqual([{ type: 'ready', url: 'http://u:1' }]);
    expect(posted).toEqual([{ type: 'stop' }]);
    expect(softKills).toBe(1);
    expect(exits).toEqual([[9, null]]);
  });
});
