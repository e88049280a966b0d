import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** test/fixtures/: third-party vectors, keys and CARs (sources and licences in its README.md). */
export const fixturesDir = resolve(fileURLToPath(new URL('../fixtures', import.meta.url)));

export function fixture(relative: string): Buffer {
  return readFileSync(join(fixturesDir, relative));
}

export function fixtureJson<T>(relative: string): T {
  return JSON.parse(fixture(relative).toString('utf8')) as T;
}
