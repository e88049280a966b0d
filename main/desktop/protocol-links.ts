import { parseContentPath } from '../names/content-path.js';

/**
 * `ipfs://` and `ipns://` links → where Pinfold shows them. Links come from any program on the machine
 * (a browser, a chat), so everything is checked: the scheme, the length, the CID or IPNS name (key or
 * DNSLink domain), and every path segment (no `.`/`..`, no encoded slash, backslash or control
 * character); the query and fragment are dropped (the gateway's own parameters are not the link's to set).
 */
export const LINK_SCHEMES = ['ipfs', 'ipns'] as const;
export const MAX_LINK_LENGTH = 4096;

/**
 * Why a link was refused. Its message is one of ours, word for word: it never quotes the link, whose
 * author could otherwise put words in Pinfold's mouth (the refusal is shown in a notification).
 */
export class ProtocolLinkError extends Error {
  override readonly name = 'ProtocolLinkError';
}

export interface ContentLink {
  readonly namespace: 'ipfs' | 'ipns';
  /** The CID as written (v0 stays v0), or the IPNS name in canonical form (`k51…`) or a lower-case domain. */
  readonly root: string;
  /** '' or the path below the root, percent-encoded per segment, e.g. `/photos/a%20b.jpg`. */
  readonly path: string;
}

/** Whether a command-line argument is one of our links (the OS hands them over in argv). */
export function isProtocolLink(arg: string): boolean {
  return /^(ipfs|ipns):\/\//i.test(arg);
}

export function parseProtocolLink(raw: unknown): ContentLink {
  if (typeof raw !== 'string') throw new ProtocolLinkError('the link is not text');
  if (raw.length > MAX_LINK_LENGTH) throw new ProtocolLinkError(`the link is longer than ${MAX_LINK_LENGTH} characters`);
  const match = /^(ipfs|ipns):\/\/([^/?#]*)([^?#]*)/i.exec(raw.trim());
  if (match === null) throw new ProtocolLinkError('only ipfs:// and ipns:// links open in Pinfold');
  const [, scheme = '', root = '', rawPath = ''] = match;
  const namespace = scheme.toLowerCase() as 'ipfs' | 'ipns';
  if (root === '') throw new ProtocolLinkError(`the link names no ${namespace === 'ipfs' ? 'CID' : 'IPNS name'}`);
  const path = safePath(rawPath);
  const parsed = parseContentPath(`/${namespace}/${root}`);
  if (parsed === undefined) {
    throw new ProtocolLinkError(namespace === 'ipfs' ? "the link's CID is not valid" : "the link's IPNS name is neither a key nor a domain");
  }
  return parsed.namespace === 'ipfs' ? { namespace, root: parsed.cid.toString(), path } : { namespace, root: parsed.target, path };
}

/** Each segment decoded, checked and encoded again; a trailing slash (a directory) is kept. */
function safePath(rawPath: string): string {
  if (rawPath === '' || rawPath === '/') return rawPath;
  const segments = rawPath.slice(1).split('/');
  const last = segments.length - 1;
  return segments
    .map((segment, index) => {
      if (segment === '') {
        if (index === last) return '';
        throw new ProtocolLinkError('the link has an empty path segment');
      }
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        throw new ProtocolLinkError('the link has a badly encoded path');
      }
      if (decoded === '.' || decoded === '..') throw new ProtocolLinkError('the link climbs out of its root (. or .. in the path)');
      // eslint-disable-next-line no-control-regex
      if (/[/\\\u0000-\u001f\u007f]/.test(decoded)) throw new ProtocolLinkError('the link has a slash, backslash or control character inside a path segment');
      return `/${encodeURIComponent(decoded)}`;
    })
    .join('')
    .concat(segments[last] === '' ? '/' : '');
}

/**
 * Where a link is shown: the local gateway's page in the browser, or the app's view page (`path`) in the
 * browser, reached through a one-time sign-in link (the shell makes it), so that the page's tab holds a key.
 */
export type LinkTarget = { open: 'browser'; url: string } | { open: 'signed-in'; path: string };

export interface GatewayFacts {
  /** The service's origin, e.g. http://127.0.0.1:5080. */
  origin: string;
  /** --public-gateway: /ipfs and /ipns answer without a key. */
  public: boolean;
}

/**
 * With the public gateway on, the browser opens the local gateway's page itself. Without it, the
 * gateway answers only requests that carry a key, which a browser navigation cannot: the browser
 * would show a 401, and handing it the key (in the URL, a cookie) would leave a secret in its history.
 * So the browser opens the app's view page for the content (`/view?path=/ipfs/…`) through a one-time
 * sign-in link: the page shows the gateway's answer in a frame whose requests the app's gateway worker
 * signs with the tab's session key, and the address bar only ever holds a spent code.
 */
export function linkTarget(link: ContentLink, gateway: GatewayFacts): LinkTarget {
  const contentPath = `/${link.namespace}/${link.root}${link.path}`;
  if (gateway.public) return { open: 'browser', url: `${gateway.origin}${contentPath}` };
  return { open: 'signed-in', path: `/view?${new URLSearchParams({ path: contentPath }).toString()}` };
}
