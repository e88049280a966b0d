import { isIPv4, isIPv6 } from 'node:net';

/**
 * The multiaddrs Pinfold reads and writes for the Pinning Service API: a PSA client's `origins` are kept when
 * they name an HTTP(S) server (extra sources for the pin's fetch, which speaks HTTP only), and Pinfold's own
 * `delegates` entry is its listen URL as a multiaddr. Forms read (each may end with `/p2p/<peer id>`):
 * `/ip4|ip6|dns|dns4|dns6/<host>/tcp/<port>/http`, `.../https` and `.../tls/http`.
 */

const MAX_MULTIADDR_LENGTH = 1024;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const PORT = /^[0-9]{1,5}$/;

function isDnsName(name: string): boolean {
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

function urlHost(protocol: string, value: string): string | null {
  if (protocol === 'ip4') return isIPv4(value) ? value : null;
  if (protocol === 'ip6') return isIPv6(value) ? `[${value}]` : null;
  if (protocol === 'dns' || protocol === 'dns4' || protocol === 'dns6') return isDnsName(value) ? value.toLowerCase() : null;
  return null;
}

/** The origin (`http://host:port`) an HTTP(S) multiaddr names, or null for any other multiaddr. */
export function httpOriginOf(multiaddr: string): string | null {
  if (multiaddr.length > MAX_MULTIADDR_LENGTH || !multiaddr.startsWith('/')) return null;
  const parts = multiaddr.slice(1).split('/');
  // A trailing peer id says whose server it is; an HTTP fetch has no use for it.
  if (parts.length >= 2 && parts[parts.length - 2] === 'p2p' && parts[parts.length - 1] !== '') parts.splice(-2);
  const [hostProtocol, hostValue, tcp, port, ...scheme] = parts;
  if (hostProtocol === undefined || hostValue === undefined || tcp !== 'tcp' || port === undefined || !PORT.test(port)) return null;
  const host = urlHost(hostProtocol, hostValue);
  const portNumber = Number(port);
  if (host === null || portNumber < 1 || portNumber > 65535) return null;
  const wire = scheme.join('/');
  const protocol = wire === 'http' ? 'http' : wire === 'https' || wire === 'tls/http' ? 'https' : null;
  if (protocol === null) return null;
  return new URL(`${protocol}://${host}:${portNumber}`).origin;
}

/** The HTTP(S) multiaddrs among a PSA client's origins, once each, in their order; the others are ignored. */
export function keptOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.filter((origin) => httpOriginOf(origin) !== null))];
}

/** A server's base URL (`http://127.0.0.1:5080`) as a multiaddr: `/ip4/127.0.0.1/tcp/5080/http`. */
export function multiaddrOfUrl(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  const hostPart = isIPv4(host) ? `/ip4/${host}` : isIPv6(host) ? `/ip6/${host}` : `/dns/${host}`;
  const scheme = parsed.protocol === 'https:' ? 'https' : 'http';
  const port = parsed.port !== '' ? parsed.port : scheme === 'https' ? '443' : '80';
  return `${hostPart}/tcp/${port}/${scheme}`;
}
