import { isIPv4, isIPv6 } from 'node:net';

/**
 * A server's base URL as the multiaddr the IPFS network writes for an HTTP peer (ipfs/specs
 * routing/http-routing-v1, IPIP-484): `http://127.0.0.1:5080` is `/ip4/127.0.0.1/tcp/5080/http`, a host name
 * `/dns/<name>/tcp/<port>/http`, an https URL ends in `/https`. What Pinfold answers about itself as a provider
 * (gateway-multiaddr.ts reads the other way).
 */
export function httpMultiaddrOfUrl(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  const hostPart = isIPv4(host) ? `/ip4/${host}` : isIPv6(host) ? `/ip6/${host}` : `/dns/${host}`;
  const scheme = parsed.protocol === 'https:' ? 'https' : 'http';
  const port = parsed.port !== '' ? parsed.port : scheme === 'https' ? '443' : '80';
  return `${hostPart}/tcp/${port}/${scheme}`;
}
