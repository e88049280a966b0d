import { createServer } from 'node:net';

/**
 * The configured port when it is free, else 0 (any free port): a second app or another program on
 * 5080 must not keep the desktop from starting. The check and the real listen are apart, so a race is
 * possible; losing it only means listen() fails with a clear EADDRINUSE.
 */
export async function choosePort(preferred: number, host: string): Promise<number> {
  if (preferred === 0) return 0;
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(0);
      else reject(error);
    });
    probe.listen({ port: preferred, host, exclusive: true }, () => {
      probe.close(() => resolve(preferred));
    });
  });
}
