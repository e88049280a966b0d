import { isIPv6, type AddressInfo } from 'node:net';

/** Binds to every interface; a client reaches such a server on loopback. */
const WILDCARD_HOSTS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '[::1]', '': '127.0.0.1' };

/**
 * The one base URL a client reaches the server at, for everything that hands it out: the listening line
 * `pinfold serve` prints, `server.json` (found there by `pinfold gc` and `pinfold sync`) and the upload
 * addresses step 1 answers. It is the configured `--host` as a client names it (an IPv6 literal in
 * brackets), so the Host guard lets the URL's own requests in, and a wildcard bind (`0.0.0.0`, `::`) on
 * loopback, which it accepts while the wildcard itself is no address to connect to; then the port the
 * server actually listens on (with `--port 0`, the one the system chose). Built from the server's own
 * settings, never from a request's headers.
 */
export function reachableUrl(configuredHost: string, address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const host = configuredHost.toLowerCase();
  const name = WILDCARD_HOSTS[host] ?? (isIPv6(host) ? `[${host}]` : host);
  return `http://${name}:${address.port}`;
}
