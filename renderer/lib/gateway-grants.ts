/**
 * Which navigations to the gateway the window lets its gateway worker sign (issue 22, item 3). The worker
 * (renderer/public/gateway-sw.js) sees every navigation to /ipfs/ and /ipns/ on this origin, whoever
 * started it: a link or a GET form on another site reaches it just as the window's own Open does. So the
 * window says beforehand what it opens, and the worker signs only:
 * - a navigation the window announced (`expect`): once, and only within a short while;
 * - the next leg of a navigation signed for this window that the gateway redirected (a directory's address
 *   to its trailing-slash form; the worker cannot read the Location, but the browser keeps the
 *   navigation's resulting client id across its redirects): once, right after the worker reported it;
 * - a navigation started by a document that a navigation signed for this window created (the fetch's
 *   client id is the document's, and its id is the resulting client id of the navigation that made it).
 *   The browser gives that id only for a document of this origin, which the worker makes of the gateway's
 *   generated directory listings it signs (no script runs in them), so a folder's listing and its links
 *   browse on. A page of the content itself keeps its opaque origin: its links go without the key;
 * - an address signed for this window before, asked again with a referrer of this origin: Back, Forward
 *   or Reload of a page the window or a signed listing opened (the browser sends the referrer the page
 *   was first opened with: the window's pages and the gateway's answers send it to this origin only, and
 *   no other site can send one of this origin).
 * Nobody else can name these ids or send such a referrer, so a page that is not the window's, or an
 * address typed in, gets no key: the gateway answers as to any link (401/400, or the content with
 * `--public-gateway`). Addresses are compared as absolute URLs without a fragment, as the browser hands
 * them to the worker.
 */

/** How long an announced navigation waits for the worker: a click, or a pick from the link's context menu. */
export const EXPECTED_FOR_MS = 30_000;
/** How long a redirect's next leg waits: the browser follows a redirect at once. */
export const REDIRECT_FOR_MS = 10_000;
/** Documents and addresses signed for this window, the oldest forgotten first. */
export const SIGNED_KEPT = 1000;

/** What the worker knows of a navigation (its FetchEvent). */
export interface NavigationAsked {
  /** The navigation's absolute URL (`Request.url`). */
  url: string;
  /** The page it was started from as the browser tells it (`Request.referrer`): '' when none. */
  referrer: string;
  /** The document that started it (`FetchEvent.clientId`): '' when it is not one of this origin. */
  clientId: string;
  /** The document it will make (`FetchEvent.resultingClientId`), the same across the navigation's redirects. */
  resultingClientId: string;
}

export interface GatewayGrants {
  /** The window is about to open `url` (absolute): the worker may sign it once, within EXPECTED_FOR_MS. */
  expect(url: string): void;
  /** Whether the worker may sign this navigation; an announcement or a redirect it uses is gone. */
  allow(navigation: NavigationAsked): boolean;
  /** The signed navigation that makes `resultingClientId` answered a redirect: its next leg may follow, once. */
  redirected(resultingClientId: string): void;
}

/** `url` without its fragment, or null when it is not an absolute URL. */
function withoutFragment(url: string): string | null {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return null;
  }
}

/** A map of keys to deadlines: a key counts until its deadline, and once. */
function deadlines(now: () => number) {
  const until = new Map<string, number>();
  return {
    add(key: string, forMs: number): void {
      const at = now();
      for (const [candidate, deadline] of until) if (deadline <= at) until.delete(candidate);
      until.set(key, Math.max(at + forMs, until.get(key) ?? 0));
    },
    take(key: string): boolean {
      const deadline = until.get(key);
      until.delete(key);
      return deadline !== undefined && deadline > now();
    },
  };
}

/** The last SIGNED_KEPT keys added (a Set keeps the order they came in). */
function recent() {
  const kept = new Set<string>();
  return {
    add(key: string): void {
      if (key === '') return;
      kept.delete(key);
      kept.add(key);
      if (kept.size > SIGNED_KEPT) {
        const oldest = kept.values().next();
        if (!oldest.done) kept.delete(oldest.value);
      }
    },
    has: (key: string): boolean => key !== '' && kept.has(key),
  };
}

/** Whether `referrer` is a page of `url`'s origin. */
function sameOrigin(referrer: string, url: string): boolean {
  try {
    return new URL(referrer).origin === new URL(url).origin;
  } catch {
    return false;
  }
}

export function createGatewayGrants(now: () => number = Date.now): GatewayGrants {
  const expected = deadlines(now);
  const redirects = deadlines(now);
  /** Resulting client ids of navigations signed for this window: the documents they made. */
  const documents = recent();
  /** Addresses signed for this window. */
  const addresses = recent();

  return {
    expect(url) {
      const key = withoutFragment(url);
      if (key !== null) expected.add(key, EXPECTED_FOR_MS);
    },
    allow({ url, referrer, clientId, resultingClientId }) {
      const key = withoutFragment(url);
      if (key === null) return false;
      const granted =
        expected.take(key) ||
        (resultingClientId !== '' && redirects.take(resultingClientId)) ||
        documents.has(clientId) ||
        (addresses.has(key) && sameOrigin(referrer, key));
      if (granted) {
        documents.add(resultingClientId);
        addresses.add(key);
      }
      return granted;
    },
    redirected(resultingClientId) {
      if (documents.has(resultingClientId)) redirects.add(resultingClientId, REDIRECT_FOR_MS);
    },
  };
}

/**
 * The absolute address of a link the window follows, when it is content on this origin's gateway
 * (`/ipfs/…`, `/ipns/…`), else null: only those are announced to the worker.
 */
export function gatewayNavigationUrl(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(base).origin || !/^\/ip[fn]s\//.test(url.pathname)) return null;
  url.hash = '';
  return url.href;
}
