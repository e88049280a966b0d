import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { choosePort } from '../../../main/desktop/port.js';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('choosePort', () => {
  it('keeps a free port', async () => {
    const probe = await listen(0);
    const port = portOf(probe);
    await close(probe);
    await expect(choosePort(port, '127.0.0.1')).resolves.toBe(port);
    // The probe released it: the port can be bound again.
    await close(await listen(port));
  });

  it('falls back to 0 when the port is taken', async () => {
    const holder = await listen(0);
    try {
      await expect(choosePort(portOf(holder), '127.0.0.1')).resolves.toBe(0);
    } finally {
      await close(holder);
    }
  });

  it('leaves 0 alone', async () => {
    await expect(choosePort(0, '127.0.0.1')).resolves.toBe(0);
  });
});
