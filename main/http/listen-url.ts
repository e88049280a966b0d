import { isIPv6 } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Binds to every interface; a client reaches such a server on loopback. */
const WILDCARD_HOSTS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '[::1]', '': '127.0.0.1' };

/**
 * The base URL clients reach the server at: the configured `--host` (so the Host guard lets the URL's own
 * requests in), loopback for a wildcard bind, and the port the server actually listens on. Built from
 * the server's own settings, never from a request's headers.
 */
export function reachableBaseUrl(configuredHost: string, address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const host = configuredHost.toLowerCase();
  const name = WILDCARD_HOSTS[host] ?? (isIPv6(host) ? `[${host}]` : host);
  return `http://${name}:${address.port}`;
}
