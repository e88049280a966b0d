import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parentChannel } from '../../../main/service/parent-channel.js';

describe("the service process's line to its parent", () => {
  it("uses Electron's parentPort in a utility process: checked messages in, posted messages out", async () => {
    const port = Object.assign(new EventEmitter(), { posted: [] as unknown[], postMessage: (message: unknown) => port.posted.push(message) });
    const proc = Object.assign(new EventEmitter(), { parentPort: port }) as unknown as NodeJS.Process;
    const channel = parentChannel(proc);
    expect(channel).not.toBeNull();
    const received: unknown[] = [];
    channel?.onMessage((message) => received.push(message));
    port.emit('message', { data: { type: 'stop' } });
    port.emit('message', { data: { type: 'stop', please: 'also rm -rf' } });
    port.emit('message', { data: 'stop' });
    await channel?.send({ type: 'ready', url: 'http://127.0.0.1:5080' });
    expect(received).toEqual([{ type: 'stop' }, { type: 'stop' }]);
    expect(port.posted).toEqual([{ type: 'ready', url: 'http://127.0.0.1:5080' }]);
    channel?.close();
    port.emit('message', { data: { type: 'stop' } });
    expect(received).toHaveLength(2);
  });

  it("uses Node's IPC channel under a Node parent, and tells when the parent goes away", async () => {
    const sent: unknown[] = [];
    const proc = Object.assign(new EventEmitter(), {
      connected: true,
      send: (message: unknown, _handle: unknown, _options: unknown, callback: (error: Error | null) => void) => {
        sent.push(message);
        callback(null);
        return true;
      },
      disconnect: () => {
        proc.connected = false;
      },
    });
    const channel = parentChannel(proc as unknown as NodeJS.Process);
    let gone = false;
    channel?.onDisconnect(() => (gone = true));
    await channel?.send({ type: 'fatal', message: 'port in use' });
    expect(sent).toEqual([{ type: 'fatal', message: 'port in use' }]);
    proc.emit('disconnect');
    expect(gone).toBe(true);
    channel?.close();
    expect(proc.connected).toBe(false);
  });

  it('has none for pinfold serve run from a shell', () => {
    expect(parentChannel(new EventEmitter() as unknown as NodeJS.Process)).toBeNull();
  });
});
