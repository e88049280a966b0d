import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readServerUrl, removeServerFile, ServerFileError, writeServerFile } from '../../../main/app/server-file.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('server.json: one writer, one reader', () => {
  it('reads what the server wrote; missing and unreadable files are errors that say which', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-server-file-'));
    await expect(readServerUrl(dir)).rejects.toMatchObject({ name: 'ServerFileError', reason: 'missing' });
    await writeServerFile(dir, 'http://127.0.0.1:5081');
    expect(await readServerUrl(dir)).toBe('http://127.0.0.1:5081');
    for (const text of ['{', '{"url":5}', '{"url":"http://0.0.0.0:1/x"}', 'null']) {
      await writeFile(join(dir, 'server.json'), text);
      const error = await readServerUrl(dir).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ServerFileError);
      expect(error).toMatchObject({ reason: 'unreadable' });
    }
    removeServerFile(dir);
    await expect(readServerUrl(dir)).rejects.toMatchObject({ reason: 'missing' });
  });
});
