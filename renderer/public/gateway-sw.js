/*
 * Pinfold's gateway access for the window (a service worker, registered for /ipfs/ and /ipns/ only).
 *
 * The gateway wants an access key on every request (unless `pinfold serve --public-gateway`), and a link
 * cannot carry headers; a secret in a URL would be written to history and logs. So when the user opens
 * content from the window (a link to /ipfs/<cid>/ in a new tab), this worker asks the window's own tabs
 * for their key, adds it as headers (and `ts`) to that one navigation, and hands back the gateway's
 * answer: the content streams into the tab as from a plain link (Range, video, directory listings and
 * their links). It keeps nothing: each navigation asks again, and with no signed-in tab open the request
 * goes on without a key (401). Content is still served with `Content-Security-Policy: sandbox`, so what
 * runs in it never has the window's origin, and a sandboxed page is not a tab this worker asks.
 *
 * Plain JavaScript served as it is (renderer/public): a service worker is a classic script at a fixed URL.
 */
/* global self, URL, fetch, setTimeout, clearTimeout, MessageChannel */
const ASK = 'pinfold:gateway-credentials';
/** How long the tabs have to answer; a tab that is not signed in never does. */
const ASK_TIMEOUT_MS = 1500;

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
  if (url.origin !== self.location.origin || !/^\/(ipfs|ipns)\//.test(url.pathname)) return;
  event.respondWith(openContent(url, request));
});

async function openContent(url, request) {
  const credentials = await askTabs();
  if (!credentials) return fetch(request);
  url.searchParams.set('ts', String(Math.floor(Date.now() / 1000)));
  // `manual`: a directory's redirect to its trailing-slash URL goes back to the tab, which follows it as a
  // navigation of its own (and comes here again), so relative links resolve against the right address.
  return fetch(url.href, {
    method: 'GET',
    headers: { 'X-Access-Key': credentials.accessKey, 'X-Access-Secret': credentials.accessSecret },
    redirect: 'manual',
    credentials: 'omit',
    cache: 'no-store',
  });
}

/** The key of a signed-in tab of the window (same origin), or null when none answers in time. */
async function askTabs() {
  const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (tabs.length === 0) return null;
  return new Promise((resolve) => {
    let waiting = tabs.length;
    const timer = setTimeout(() => resolve(null), ASK_TIMEOUT_MS);
    for (const tab of tabs) {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => {
        const answer = event.data;
        if (answer && typeof answer.accessKey === 'string' && typeof answer.accessSecret === 'string') {
          clearTimeout(timer);
          resolve({ accessKey: answer.accessKey, accessSecret: answer.accessSecret });
        } else if (--waiting === 0) {
          clearTimeout(timer);
          resolve(null);
        }
        channel.port1.close();
      };
      tab.postMessage({ type: ASK }, [channel.port2]);
    }
  });
}
