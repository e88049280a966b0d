import { isIPv4, isIPv6 } from 'node:net';

/**
 * The trustless gateway URL an HTTP multiaddr names, or null when it names none Pinfold can reach over
 * HTTP: `/ip4|ip6|dns|dns4|dns6/<host>/tcp/<port>` then `/http`, `/https`, `/tls/http` or
 * `/tls/sni/<name>/http`, optionally `/http-path/<url-encoded prefix>`, optionally `/p2p/<peer id>`.
 * Used for the providers a routing endpoint lists and for a PSA pin's `origins` (contract section 11:
 * "origins that are HTTP(S) multiaddrs are extra sources, others are ignored").
 *
 * Read from the text rather than through @multiformats/multiaddr-to-uri: that converter takes a bare
 * `/tcp/N` for HTTP and turns other transports into `tcp://`/`ws://` URIs, where Pinfold must keep exactly
 * the addresses that say HTTP; and the text form is what both callers have.
 */
export function gatewayUrlOfMultiaddr(text: string): string | null {
  const parts = text.split('/');
  if (parts[0] !== '' || parts.length < 6) return null;
  let at = 1;
  const next = (): string | undefined => parts[at++];
  const hostProtocol = next();
  const hostValue = next();
  if (hostValue === undefined) return null;
  let host: string;
  if (hostProtocol === 'ip4' && isIPv4(hostValue)) host = hostValue;
  else if (hostProtocol === 'ip6' && isIPv6(hostValue)) host = `[${hostValue}]`;
  else if ((hostProtocol === 'dns' || hostProtocol === 'dns4' || hostProtocol === 'dns6') && isHostName(hostValue)) host = hostValue.toLowerCase();
  else return null;
  if (next() !== 'tcp') return null;
  const port = next();
  if (port === undefined || !/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return null;
  let scheme: 'http' | 'https';
  let protocol = next();
  if (protocol === 'tls') {
    protocol = next();
    if (protocol === 'sni') {
      if (!isHostName(next() ?? '')) return null;
      protocol = next();
    }
    if (protocol !== 'http') return null;
    scheme = 'https';
  } else if (protocol === 'https') scheme = 'https';
  else if (protocol === 'http') scheme = 'http';
  else return null;
  let path = '';
  if (parts[at] === 'http-path') {
    at++;
    const encoded = next();
    if (encoded === undefined) return null;
    try {
      path = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (!path.startsWith('/')) path = `/${path}`;
  }
  if (parts[at] === 'p2p' && parts[at + 1] !== undefined && parts[at + 1] !== '') at += 2;
  // Anything else (a circuit relay, webtransport, a trailing slash) is not a plain HTTP gateway.
  if (at !== parts.length) return null;
  let url: URL;
  try {
    url = new URL(`${scheme}://${host}:${port}${path}`);
  } catch {
    return null;
  }
  if (url.search !== '' || url.hash !== '') return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function isHostName(text: string): boolean {
  return text.length > 0 && text.length <= 253 && /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/.test(text);
}
