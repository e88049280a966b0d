import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { CreatedAccessKey } from '../../shared/api-types.js';
import { nowTs } from '../helpers/test-server.js';

/**
 * The request shapes of the hosted service's three SDKs, reproduced from their sources (gw3-sdk-js
 * lib/utils.ts + lib/request.ts on axios, gw3-sdk-go common.go on net/http, gw3-sdk-python gw3/client.py
 * on requests): which URL each sends, which string each signs and how it encodes the signature. Sent
 * with node:http so the path goes out byte for byte, and redirects followed as those HTTP clients do:
 * same method for a GET, same headers, to the Location as given.
 */

export interface SdkRequest {
  method: string;
  /** Path and query exactly as the SDK's HTTP client puts them on the request line. */
  path: string;
  headers: Record<string, string>;
}

export interface SdkResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

function hmac(key: CreatedAccessKey, data: string): Buffer {
  return createHmac('sha256', Buffer.from(key.access_secret, 'base64url')).update(data, 'utf8').digest();
}

function signedHeaders(key: CreatedAccessKey, signature: string): Record<string, string> {
  return { 'X-Access-Key': key.access_key, 'X-Access-Signature': signature };
}

/**
 * gw3-sdk-js: `url` as the SDK builds it (`/ipfs/${cid}?ts=${ts}`, `/ipfs/${root}${path}?size=…&ts=…`).
 * It signs `new URL(…).pathname` (percent-encoded) and `searchParams.toString()`, standard base64 with
 * "+/" swapped for "-_" and the padding kept; axios sends that pathname and the search as parsed.
 */
export function jsRequest(key: CreatedAccessKey, method: string, url: string): SdkRequest {
  const parsed = new URL(`http://example.com${url}`);
  const data = `${method}\n${parsed.pathname}\n${parsed.searchParams.toString()}`;
  const signature = hmac(key, data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return { method, path: `${parsed.pathname}${parsed.search}`, headers: signedHeaders(key, signature) };
}

/**
 * Go's url.QueryEscape, and Python's quote_plus as urlencode uses it: unreserved characters kept, space as
 * "+", every other byte %XX.
 */
function queryEscape(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-_.~]/.test(char)) return char;
      if (char === ' ') return '+';
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * Go's URL.EscapedPath() for a path holding characters a raw path may not (a space, non-ASCII): every
 * byte escaped but unreserved characters, "/" and the sub-delimiters Go leaves in paths.
 */
function goEscapePath(path: string): string {
  return [...Buffer.from(path, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-_.~$&+,/:;=@]/.test(char)) return char;
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * gw3-sdk-go: `path` is the request's URL.Path (decoded, as `fmt.Sprintf("%s/ipfs/%s", …)` wrote it) and
 * `query` what the call set before signing. `sign` adds `ts`, re-encodes the query sorted by key
 * (url.Values.Encode), signs the decoded path, and encodes with base64.URLEncoding (padded).
 */
export function goRequest(key: CreatedAccessKey, method: string, path: string, query: Record<string, string> = {}): SdkRequest {
  const params = { ...query, ts: String(nowTs()) };
  const encoded = Object.keys(params)
    .sort()
    .map((name) => `${queryEscape(name)}=${queryEscape(params[name as keyof typeof params])}`)
    .join('&');
  const signature = hmac(key, `${method}\n${path}\n${encoded}`).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return { method, path: `${goEscapePath(path)}?${encoded}`, headers: signedHeaders(key, signature) };
}

/**
 * gw3-sdk-python: `url` as the SDK builds it (`f"{ENDPOINT}/ipfs/{root}{path}?size={size}"` without the
 * endpoint). requests percent-encodes the path (requote_uri); `sign` then parses the query into a dict,
 * sets `ts` (after the others), urlencodes it in that order, signs the encoded path, and encodes with
 * urlsafe_b64encode (padded).
 */
export function pythonRequest(key: CreatedAccessKey, method: string, url: string): SdkRequest {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const path = requoteUri(rawPath);
  const params = new Map<string, string>();
  if (queryAt !== -1) for (const [name, value] of new URLSearchParams(url.slice(queryAt + 1))) if (value !== '') params.set(name, value);
  params.set('ts', String(nowTs()));
  const encoded = [...params].map(([name, value]) => `${queryEscape(name)}=${queryEscape(value)}`).join('&');
  const signature = hmac(key, `${method}\n${path}\n${encoded}`).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return { method, path: `${path}?${encoded}`, headers: signedHeaders(key, signature) };
}

/** requests' requote_uri for a path with nothing escaped yet: quote() with its safe set. */
function requoteUri(path: string): string {
  return [...Buffer.from(path, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-_.~!#$%&'()*+,/:;=?@[\]]/.test(char)) return char;
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** One request on the wire, no redirect followed. */
export function send(baseUrl: string, request: SdkRequest, body?: Uint8Array): Promise<SdkResponse> {
  const target = new URL(baseUrl);
  const headers = body === undefined ? request.headers : { ...request.headers, 'content-length': String(body.byteLength) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, method: request.method, path: request.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes, text: bytes.toString('utf8') });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export interface FollowedResponse extends SdkResponse {
  /** The Location of each redirect followed, in order. */
  redirects: string[];
}

/**
 * A GET as axios (follow-redirects), Go's http.Client and requests make it: a 301/302 is followed to its
 * Location with the same method and the same headers, the signature included (same host).
 */
export async function getFollowing(baseUrl: string, request: SdkRequest, maxRedirects = 5): Promise<FollowedResponse> {
  const redirects: string[] = [];
  let current = request;
  for (;;) {
    const response = await send(baseUrl, current);
    const location = response.headers.location;
    if ((response.status !== 301 && response.status !== 302) || typeof location !== 'string' || redirects.length >= maxRedirects)
      return { ...response, redirects };
    redirects.push(location);
    current = { ...current, path: location };
  }
}

/** The address step 1 answered, as path and query on this server. */
export function stepTwoPath(stepOne: SdkResponse): string {
  const url = new URL((JSON.parse(stepOne.text) as { data: { url: string } }).data.url);
  return `${url.pathname}${url.search}`;
}
