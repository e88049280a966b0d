import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSignInCodes, MAX_OUTSTANDING, type SignInCodes } from '../../../main/accounts/sign-in-codes.js';
import { systemClock } from '../../../main/base/clock.js';
import { createPrivateFolder, type PrivateFolder } from '../../../main/base/private-folder.js';
import { createSignInHandoffs, handoffPage, signInUrl, type SignInHandoffs } from '../../../main/http/sign-in-handoff.js';
import { until } from '../../helpers/until.js';

const LISTEN = 'http://127.0.0.1:5080';

/** The link a handoff page sends the browser to (its `<a href>`, HTML entities undone). */
function linkOf(page: string): URL {
  const href = /<a href="([^"]*)">/.exec(page)?.[1] ?? '';
  return new URL(
    href
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );
}

async function gone(path: string): Promise<void> {
  await until(`${path} to be removed`, () => (existsSync(path) ? undefined : true), 5000);
}

describe('sign-in handoff pages', () => {
  let runtime: string;
  let folder: PrivateFolder;
  let codes: SignInCodes;
  let handoffs: SignInHandoffs;
  const start = (lifetimeSeconds?: number) => {
    codes = createSignInCodes(systemClock, lifetimeSeconds === undefined ? {} : { lifetimeSeconds });
    handoffs = createSignInHandoffs({ codes, folder, listenUrl: () => LISTEN, nowMs: () => Date.now() });
  };
  beforeEach(() => {
    runtime = mkdtempSync(join(tmpdir(), 'pinfold-runtime-'));
    chmodSync(runtime, 0o700);
    folder = createPrivateFolder({ env: { XDG_RUNTIME_DIR: runtime }, prefix: 'pinfold-sign-in-' });
    start();
  });
  afterEach(() => {
    handoffs.close();
    folder.close();
    rmSync(runtime, { recursive: true, force: true });
  });

  it('the sign-in link carries the code, and the page to land on when given', () => {
    expect(signInUrl(LISTEN, 'c0de')).toBe(`${LISTEN}/signin?code=c0de`);
    const link = new URL(signInUrl(LISTEN, 'c0de', '/view?path=%2Fipfs%2Fbafy&x=1'));
    expect(link.searchParams.get('code')).toBe('c0de');
    expect(link.searchParams.get('next')).toBe('/view?path=%2Fipfs%2Fbafy&x=1');
  });

  it('the page sends the browser on by script, by meta refresh without scripts, and by a link; nothing in the URL breaks out of it', () => {
    const hostile = `${LISTEN}/signin?code=a"><script>alert(1)</script>&next='</script>`;
    const page = handoffPage(hostile);
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
    expect(page).not.toContain('<script>alert');
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    const script = /<script>(.*)<\/script>/.exec(page)?.[1] ?? '';
    expect(script).toBe(`location.replace(${JSON.stringify(hostile).replace(/</g, '\\u003c')});`);
    expect(JSON.parse(/location\.replace\((.*)\);/.exec(script)?.[1] ?? '')).toBe(hostile);
    expect(page).toContain(`<noscript><meta http-equiv="refresh" content="0;url=${LISTEN}/signin?code=a&quot;&gt;&lt;script&gt;`);
    expect(linkOf(page).href).toBe(new URL(hostile).href);
  });

  it('writes a 0600 page in a 0700 folder whose link signs in once, with the session asked for; the page is gone once the code is used', async () => {
    const handoff = await handoffs.create({ next: '/view?path=%2Fipfs%2Fbafy', session: 'shared' });
    if (process.platform !== 'win32') {
      expect(dirname(dirname(handoff.path))).toBe(runtime);
      expect(statSync(handoff.path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(handoff.path)).mode & 0o777).toBe(0o700);
    }
    expect(handoff.expiresAt).toBe(Math.floor(Date.now() / 1000) + 300);
    const link = linkOf(readFileSync(handoff.path, 'utf8'));
    expect(`${link.origin}${link.pathname}`).toBe(`${LISTEN}/signin`);
    expect(link.searchParams.get('next')).toBe('/view?path=%2Fipfs%2Fbafy');
    const code = link.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codes.redeem(code)).toBe('shared');
    expect(existsSync(handoff.path)).toBe(false);

    // A failed attempt uses a code up too, and takes its page with it.
    const other = await handoffs.create({ next: null, session: 'new' });
    const otherCode = linkOf(readFileSync(other.path, 'utf8')).searchParams.get('code') ?? '';
    expect(codes.redeem(otherCode)).toBe('new');
    expect(codes.redeem(otherCode)).toBeNull();
  });

  it('deletes the page when its code expires, unused', async () => {
    handoffs.close();
    start(1);
    const handoff = await handoffs.create({ next: null, session: 'new' });
    const code = linkOf(readFileSync(handoff.path, 'utf8')).searchParams.get('code') ?? '';
    await gone(handoff.path);
    expect(codes.redeem(code)).toBeNull();
  });

  it(`deletes the page when its code is dropped for ${MAX_OUTSTANDING} newer ones`, async () => {
    const handoff = await handoffs.create({ next: null, session: 'new' });
    for (let i = 0; i < MAX_OUTSTANDING - 1; i += 1) codes.issue();
    expect(existsSync(handoff.path)).toBe(true);
    codes.issue();
    expect(existsSync(handoff.path)).toBe(false);
  });
});
