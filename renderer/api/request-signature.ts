/**
 * `X-Access-Signature` (contract section 2): HMAC-SHA256, keyed with the base64url-decoded secret, over
 * `METHOD\npath\nquery` as the request is sent. The window signs every call instead of sending its
 * secret, so whatever answers on the service's port (a program that took it while the service was down)
 * learns a signature for one URL within the `ts` window, never the key's secret (issue 22, item 2).
 * WebCrypto, so it runs in the page, the gateway worker's tab and Node's tests alike.
 */

/** Imported HMAC keys by secret (typed through the API: the renderer's Node-side tests have no DOM types). */
const imported = new Map<string, ReturnType<typeof crypto.subtle.importKey>>();

function bytesOfBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function base64UrlOf(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The secret as an HMAC key, imported once per secret (a page makes many calls with one key). */
function hmacKey(secret: string): ReturnType<typeof crypto.subtle.importKey> {
  let key = imported.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', bytesOfBase64Url(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // A handful of keys at most in a tab's life (sign-in, sign-out, another account): no eviction needed.
    imported.set(secret, key);
  }
  return key;
}

/**
 * The signature of a request to `url` (absolute, as it will be sent: its pathname percent-encoded as
 * fetch sends it, its query as URLSearchParams renders it).
 */
export async function requestSignature(secret: string, method: string, url: URL): Promise<string> {
  const canonical = `${method.toUpperCase()}\n${url.pathname}\n${new URLSearchParams(url.search).toString()}`;
  return base64UrlOf(await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(canonical)));
}
