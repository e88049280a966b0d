import { randomBytes } from 'node:crypto';
import type { CodeSession, SignInCodes } from '../accounts/sign-in-codes.js';
import { ConflictError } from '../base/errors.js';
import type { PrivateFolder } from '../base/private-folder.js';

/**
 * Sign-in handoff pages (issue 22, item 1): how `pinfold open` and the desktop app point a browser at a
 * one-time sign-in link without the code ever being on a command line. A browser opener (`xdg-open`,
 * `open`, `start`, Electron's shell) is a process whose arguments every local user can read in `ps`,
 * so the code goes into a page in a private folder (0600 file, 0700 folder; base/private-folder.ts),
 * and the opener is handed only the page's path. The page sends the browser on to the sign-in link,
 * where the window takes the code out of the address bar before anything renders (as for any
 * `/signin?code=` link). The page lives exactly as long as its code: it is deleted when the code is
 * redeemed, expires or is dropped, and with the folder when the service stops.
 */

export interface SignInHandoff {
  path: string;
  /** Unix seconds: the code's expiry, when the page is deleted at the latest. */
  expiresAt: number;
}

export interface SignInHandoffs {
  /** A fresh code in a page of its own, leading to `next` (a page of the window) once signed in. */
  create(options: { next: string | null; session: CodeSession }): Promise<SignInHandoff>;
  /** Stops the expiry timers (the folder is closed by its owner). */
  close(): void;
}

export interface SignInHandoffsInit {
  codes: SignInCodes;
  folder: PrivateFolder;
  /** The URL this server is reached at. */
  listenUrl(): string;
  nowMs(): number;
}

/** The link that redeems `code`: the window's sign-in page, which posts it to POST /api/v0/session. */
export function signInUrl(listenUrl: string, code: string, next: string | null = null): string {
  const query = new URLSearchParams({ code });
  if (next !== null) query.set('next', next);
  return `${listenUrl}/signin?${query.toString()}`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);

/**
 * The page: `location.replace` so neither this file nor the link stays as a history entry of its own
 * (the window then takes the code out of its address), a meta refresh where scripts are off, a link
 * to click where neither runs, and no referrer sent on.
 */
export function handoffPage(url: string): string {
  const attribute = escapeHtml(url);
  // JSON is a valid script string; `<` escaped so no `</script>` can end the script early.
  const script = JSON.stringify(url).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Signing in to Pinfold</title>
<script>location.replace(${script});</script>
<noscript><meta http-equiv="refresh" content="0;url=${attribute}"></noscript>
</head>
<body>
<p>Signing in to Pinfold… If nothing happens, <a href="${attribute}">continue to Pinfold</a>.</p>
</body>
</html>
`;
}

export function createSignInHandoffs(init: SignInHandoffsInit): SignInHandoffs {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  return {
    async create({ next, session }) {
      let path: string | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let retired = false;
      const issued = init.codes.issue({
        session,
        onRetired() {
          retired = true;
          if (timer !== undefined) {
            clearTimeout(timer);
            timers.delete(timer);
          }
          if (path !== null) init.folder.remove(path);
        },
      });
      const written = await init.folder.write(`sign-in-${randomBytes(12).toString('hex')}.html`, handoffPage(signInUrl(init.listenUrl(), issued.code, next)));
      path = written;
      // Dropped while the page was written (sixteen newer codes asked for at once): the page is useless.
      if (retired) {
        init.folder.remove(written);
        throw new ConflictError('too many sign-in codes were asked for at once; ask again');
      }
      timer = setTimeout(
        () => {
          timers.delete(timer as ReturnType<typeof setTimeout>);
          init.folder.remove(written);
        },
        Math.max(0, issued.expiresAt * 1000 - init.nowMs()),
      );
      timer.unref();
      timers.add(timer);
      return { path: written, expiresAt: issued.expiresAt };
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
