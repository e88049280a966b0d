/*
 * Pinfold's gateway access for the window (a service worker, registered for /ipfs/ and /ipns/ only).
 *
 * The gateway wants an access key on every request (unless `pinfold serve --public-gateway`), and a link
 * cannot carry headers; a secret in a URL would be written to history and logs. So when the user opens
 * content from the window (a link to /ipfs/<cid>/ in a new tab, the view page's frame), this worker asks
 * the window's own tabs to sign that one navigation (with its `ts`; the secret stays in the tab), and hands
 * back the gateway's answer: the content streams into the tab as from a plain link (Range, video,
 * directory listings and their links). It keeps nothing: each navigation asks again.
 *
 * Only navigations the window started get a key (issue 22, item 3): this worker also sees the links and
 * GET forms of any other site that target this origin. A tab answers with its key only for an address it
 * announced before opening it, for the next leg of a signed navigation the gateway redirected, for a
 * navigation started from a document signed for it, or for Back, Forward or Reload of a page signed for
 * it (renderer/lib/gateway-grants.ts; the ids below are the browser's and nobody else can name them, nor
 * send a referrer of this origin). Anything else goes on without a key, and the gateway refuses it as any
 * link (or serves it, with --public-gateway).
 *
 * Content is served with `Content-Security-Policy: sandbox`, so what runs in it never has the window's
 * origin. The one exception this worker makes is the gateway's own generated directory listing, signed
 * for the window: it gets `sandbox allow-same-origin` (still no script at all), since only a document of
 * this origin tells the worker who started the navigations of its links (FetchEvent.clientId); an opaque
 * document tells nothing, not even a referrer.
 *
 * Plain JavaScript served as it is (renderer/public): a service worker is a classic script at a fixed URL.
 */
/* global self, URL, fetch, setTimeout, clearTimeout, MessageChannel, Response, Headers */
const ASK = 'pinfold:gateway-credentials';
const REDIRECTED = 'pinfold:gateway-redirected';
/** How long the tabs have to answer; a tab that is not signed in never does. */
const ASK_TIMEOUT_MS = 1500;
const CONTENT_PATH = /^\/(ipfs|ipns)\//;
/** The gateway's generated listing (main/http/gateway/dir-listing.ts) is tagged `"DirIndex-…"`, as boxo's. */
const LISTING_ETAG = /^(W\/)?"DirIndex-/;

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.mode !== 'navigate' || request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !CONTENT_PATH.test(url.pathname)) return;
  event.respondWith(openContent(url, request, event));
});

async function openContent(url, request, event) {
  const ids = { clientId: event.clientId || '', resultingClientId: event.resultingClientId || '' };
  const signed = new URL(url.href);
  signed.searchParams.set('ts', String(Math.floor(Date.now() / 1000)));
  // The tab signs this one address (with its `ts`); the key's secret never leaves the tab.
  const grant = await askTabs({ type: ASK, url: request.url, signUrl: signed.href, referrer: request.referrer, ...ids });
  if (!grant) return fetch(request);
  // `manual`: a directory's redirect to its trailing-slash URL goes back to the tab, which follows it as a
  // navigation of its own (and comes here again), so relative links resolve against the right address.
  const response = await fetch(signed.href, {
    method: 'GET',
    headers: { 'X-Access-Key': grant.accessKey, 'X-Access-Signature': grant.signature },
    redirect: 'manual',
    credentials: 'omit',
    cache: 'no-store',
  });
  // Its Location is hidden from this worker: the tab that granted the navigation lets its next leg follow.
  if (response.type === 'opaqueredirect') await ask(grant.tab, { type: REDIRECTED, ...ids });
  else if (isListing(response)) return asOwnDocument(response);
  return response;
}

function isListing(response) {
  return response.status === 200 && LISTING_ETAG.test(response.headers.get('etag') || '') && /^text\/html/.test(response.headers.get('content-type') || '');
}

/** The listing as a document of this origin, still without script: its links' navigations name it. */
function asOwnDocument(response) {
  const headers = new Headers(response.headers);
  headers.set('content-security-policy', 'sandbox allow-same-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Posts `question` to `tab` and resolves with its answer, or null when it does not answer in time. */
function ask(tab, question) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(null);
    }, ASK_TIMEOUT_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(event.data);
    };
    tab.postMessage(question, [channel.port2]);
  });
}

/**
 * The key of the signed-in tab of the window that claims this navigation, with that tab, or null when
 * none does in time. Only the window's pages are asked: a listing this worker made a document of this
 * origin runs no script and would never answer.
 */
async function askTabs(question) {
  const all = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tabs = all.filter((tab) => !CONTENT_PATH.test(new URL(tab.url).pathname));
  if (tabs.length === 0) return null;
  return new Promise((resolve) => {
    let waiting = tabs.length;
    for (const tab of tabs) {
      void ask(tab, question).then((answer) => {
        if (answer && typeof answer.accessKey === 'string' && typeof answer.signature === 'string') {
          resolve({ accessKey: answer.accessKey, signature: answer.signature, tab });
        } else if (--waiting === 0) {
          resolve(null);
        }
      });
    }
  });
}
