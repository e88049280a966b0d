import { APP_PAGES } from '../http/routes/renderer-files.js';

/**
 * Which URLs the desktop hands to the system browser. Only http(s), no embedded credentials, and only
 * hosts on the allow-list or the local service itself; anything else (file:, javascript:, custom
 * schemes, look-alike hosts) is refused, so a page cannot use the bridge to launch programs.
 */
export const EXTERNAL_HOSTS: readonly string[] = ['github.com', 'docs.ipfs.tech', 'ipfs.tech', 'specs.ipfs.tech', 'ipfs.io', 'dweb.link', 'electronjs.org'];

export function isAllowedExternalUrl(url: unknown, serviceOrigin: string, allowedHosts: readonly string[] = EXTERNAL_HOSTS): boolean {
  if (typeof url !== 'string' || url.length > 8192) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.origin === serviceOrigin) return true;
  // Plain http only for the local service: everything remote goes over https.
  return parsed.protocol === 'https:' && allowedHosts.includes(parsed.hostname);
}

/** The renderer's pages, `/sync/:id` as one segment of anything but a slash. */
const RENDERER_PATHS = new RegExp(`^(?:/|/index\\.html|(?:${APP_PAGES.map((page) => page.replace(/:\w+/g, '[^/]+')).join('|')})/?)$`, 'i');

/**
 * The desktop window shows the renderer and nothing else: the service's origin at `/`, `/index.html`
 * or one of the renderer's pages (the router moves between them, and the bridge's sender check sees
 * the page the window is on). Gateway content (`/ipfs/...`) and the API share that origin, so they
 * must never load inside the window, where they would reach the preload bridge.
 */
export function isRendererUrl(url: string | undefined, serviceOrigin: string): boolean {
  if (url === undefined) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.origin === serviceOrigin && RENDERER_PATHS.test(parsed.pathname);
}
