import { BadInputError } from '../../base/errors.js';
import { tryParseIpnsName } from '../../names/name-parse.js';
import { MAX_ENDPOINTS, parseEndpoint, parseEndpointList } from '../../network/endpoints.js';

/**
 * What `pinfold sync follow <name>` (and `POST /api/v0/sync/follow`) is given to follow, parsed (issue 24):
 * an IPNS name as a key (`k51…`, `12D3KooW…`, `Qm…`, any CID spelling of a libp2p key), as a path
 * `/ipns/<name>`, or as a gateway URL `http(s)://host[:port][/prefix]/ipns/<name>[/]`, whose gateway then
 * becomes an extra source of the name's records and blocks. A DNSLink domain is no IPNS name: the folder
 * follows a key whose records are signed, nothing a DNS answer could change.
 */
export interface FollowTarget {
  /** The canonical name (base36 CIDv1 of the key, `k51…`). */
  name: string;
  /** Gateways asked besides the network settings' sources: the URL's gateway first, then `from`; no duplicates. */
  sources: string[];
}

/**
 * Parses `name` (the parameter `name`: its text, present) and `from` (the parameter `from`, gateway URLs; may
 * be empty). The shapes of both (text, a list of texts, their bounds) are the request schema's
 * (http/input/sync-input.ts); what they say is checked here, each refusal naming its parameter.
 */
export function parseFollowTarget(name: string, from: readonly string[]): FollowTarget {
  const text = name.trim();
  const extra = parseEndpointList(from, 'from');
  const url = /^https?:\/\//i.test(text) ? gatewayUrl(text) : undefined;
  const key = url?.name ?? (text.startsWith('/ipns/') ? text.slice('/ipns/'.length).replace(/\/$/, '') : text);
  const parsed = tryParseIpnsName(key);
  if (parsed === undefined)
    throw new BadInputError(
      `name: ${JSON.stringify(text.slice(0, 200))} is not an IPNS name (a k51…, 12D3KooW… or Qm… key; a DNSLink domain cannot be followed)`,
      'name',
    );
  const sources = [...new Set([...(url ? [url.gateway] : []), ...extra])];
  if (sources.length > MAX_ENDPOINTS) throw new BadInputError(`from: at most ${MAX_ENDPOINTS} gateways in all`, 'from');
  return { name: parsed.name, sources };
}

/** A gateway URL's parts: the gateway (origin and any prefix before `/ipns/`) and the name after it. */
function gatewayUrl(text: string): { gateway: string; name: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadInputError(`name: "${text.slice(0, 200)}" is not a URL`, 'name');
  }
  const match = /^(.*)\/ipns\/([^/]+)\/?$/.exec(url.pathname);
  if (match === null) throw new BadInputError('name: a gateway URL must end in /ipns/<name>', 'name');
  const [, prefix = '', name = ''] = match;
  if (url.username !== '' || url.password !== '') throw new BadInputError('name: a URL must not carry credentials', 'name');
  // The gateway is checked as any endpoint is (no query or fragment), with its prefix kept.
  const gateway = parseEndpoint(`${url.protocol}//${url.host}${prefix}${url.search}${url.hash}`, 'name');
  // A key name is plain base36/base58 text: an escape in it is no name (tryParseIpnsName refuses it).
  return { gateway, name };
}

/**
 * How an incoming file beside a local change names where it came from (`name (from <source>, …).ext`): the
 * first extra gateway's host (no port: a colon cannot be in a Windows file name), else the name's short form.
 */
export function followSourceLabel(target: Pick<FollowTarget, 'name' | 'sources'>): string {
  const [first] = target.sources;
  if (first !== undefined) return new URL(first).hostname.replace(/^\[|\]$/g, '').replace(/:/g, '-');
  return `${target.name.slice(0, 8)}…${target.name.slice(-4)}`;
}
