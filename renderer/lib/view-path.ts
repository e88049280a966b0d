/**
 * The content the view page (`/view?path=…`) shows: `/ipfs/<cid>[/…]` or `/ipns/<name>[/…]` on this
 * service's own gateway, read as strictly as the desktop app reads an ipfs:// link (main/desktop/
 * protocol-links.ts), since the address can come from any program: no other origin, no `.`/`..`
 * segment (a browser resolves `%2e%2e` too), no encoded slash, backslash or control character, no query.
 * The path is given back with each segment encoded once, ready for an iframe's src.
 */
import { readCidInput } from './cid-text.js';
import { middleEllipsis } from './format.js';
import { ipnsNameOfText } from './ipns-name-text.js';

export interface ViewTarget {
  /** `/ipfs/<cid>/a%20b.txt`: each segment encoded once; a trailing slash (a directory) kept. */
  path: string;
  namespace: 'ipfs' | 'ipns';
  /** The CID, IPNS name or DNSLink domain. */
  root: string;
  /** What the page's heading calls it: the last segment (decoded), else the root shortened. */
  title: string;
  /** The path inside the root, decoded, as the heading's second line ("/docs/read me.txt"); '' for the root itself. */
  within: string;
}

export type ViewPathInput = { target: ViewTarget } | { problem: string };

/** Longer text is refused without a look (the desktop app refuses links longer than this too). */
export const MAX_VIEW_PATH = 4096;

const SHAPE = 'The address must name content as /ipfs/<CID> or /ipns/<name>, optionally followed by a path inside it.';

/** The view page's own address for a content path. */
export function viewPagePath(contentPath: string): string {
  return `/view?${new URLSearchParams({ path: contentPath }).toString()}`;
}

export function readViewPath(text: string | null): ViewPathInput {
  if (text === null || text.trim() === '') return { problem: 'This address names no content to show.' };
  if (text.length > MAX_VIEW_PATH) return { problem: `This content address is longer than ${MAX_VIEW_PATH} characters.` };
  const match = /^\/(ipfs|ipns)\/([^/]+)(\/.*)?$/.exec(text);
  if (match === null) return { problem: /^[a-z][a-z0-9+.-]*:|^\/\/|^\\/i.test(text) ? 'Only content on this service can be shown here.' : SHAPE };
  const [, namespace = '', root = '', rest = ''] = match;
  if (/[?#]/.test(text)) return { problem: 'A content address here takes no query or fragment (? or #).' };
  const checked = namespace === 'ipfs' ? checkCid(root) : checkName(root);
  if ('problem' in checked) return checked;
  const segments = readSegments(rest);
  if ('problem' in segments) return segments;
  const last = segments.names.at(-1);
  return {
    target: {
      path: `/${namespace}/${checked.root}${segments.names.map((name) => `/${encodeURIComponent(name)}`).join('')}${segments.directory ? '/' : ''}`,
      namespace: namespace === 'ipfs' ? 'ipfs' : 'ipns',
      root: checked.root,
      title: last ?? middleEllipsis(checked.root),
      within: segments.names.length === 0 ? '' : `/${segments.names.join('/')}${segments.directory ? '/' : ''}`,
    },
  };
}

function checkCid(root: string): { root: string } | { problem: string } {
  const input = readCidInput(root);
  return 'cid' in input && input.cid === root ? { root } : { problem: `${middleEllipsis(root, 24, 8)} is not a valid CID.` };
}

function checkName(root: string): { root: string } | { problem: string } {
  if (ipnsNameOfText(root) === root) return { root };
  const domain = dnsLinkDomain(root);
  return domain === null ? { problem: `${middleEllipsis(root, 24, 8)} is not an IPNS name or a domain.` } : { root: domain };
}

/** A DNS name as the service's DNSLink takes it (main/names/content-path.ts normalizeDomain), lower-cased. */
function dnsLinkDomain(text: string): string | null {
  const domain = text.toLowerCase().replace(/\.$/, '');
  if (domain.length > 253 || !domain.includes('.')) return null;
  return domain.split('.').every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label)) ? domain : null;
}

/** The decoded names below the root; `rest` is '' or starts with '/'. */
function readSegments(rest: string): { names: string[]; directory: boolean } | { problem: string } {
  if (rest === '' || rest === '/') return { names: [], directory: rest === '/' };
  const raw = rest.slice(1).split('/');
  const directory = raw.at(-1) === '';
  if (directory) raw.pop();
  const names: string[] = [];
  for (const segment of raw) {
    if (segment === '') return { problem: 'This content address has an empty path segment (//).' };
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return { problem: 'This content address is badly encoded (a % not followed by two hex digits).' };
    }
    if (name === '.' || name === '..') return { problem: 'This content address climbs out of its root (. or .. in the path).' };
    // eslint-disable-next-line no-control-regex
    if (/[/\\\u0000-\u001f\u007f]/.test(name)) return { problem: 'This content address has a slash, backslash or control character inside a path segment.' };
    names.push(name);
  }
  return { names, directory };
}
