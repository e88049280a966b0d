import type { CID } from 'multiformats/cid';
import { tryParseCid } from '../base/cid-text.js';
import { tryParseIpnsName } from './name-parse.js';

/** What an IPNS record value or a DNSLink value points at: content, or another name (key or DNS). */
export type ContentPath = { namespace: 'ipfs'; cid: CID; rest: string } | { namespace: 'ipns'; target: string; rest: string };

/**
 * Parses `/ipfs/<cid>[/path]` or `/ipns/<name>[/path]`; `rest` is '' or starts with '/'. An `/ipns/` target
 * is a key name (returned canonical) or a DNS name (returned lower-case). Undefined for anything else.
 */
export function parseContentPath(value: string): ContentPath | undefined {
  const match = /^\/(ipfs|ipns)\/([^/?#]+)(\/[^?#]*)?$/.exec(value.trim());
  if (match === null) return undefined;
  const [, namespace, root = '', rest = ''] = match;
  if (namespace === 'ipfs') {
    const cid = tryParseCid(root);
    return cid === undefined ? undefined : { namespace: 'ipfs', cid, rest };
  }
  const name = tryParseIpnsName(root);
  if (name !== undefined) return { namespace: 'ipns', target: name.name, rest };
  const domain = normalizeDomain(root);
  return domain === undefined ? undefined : { namespace: 'ipns', target: domain, rest };
}

/** A DNS name as DNSLink takes it: at least two labels of letters, digits, `-` or `_`; lower-cased. */
export function normalizeDomain(text: string): string | undefined {
  const domain = text.toLowerCase().replace(/\.$/, '');
  if (domain.length === 0 || domain.length > 253 || !domain.includes('.')) return undefined;
  const labels = domain.split('.');
  const labelOk = (label: string) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label);
  return labels.every(labelOk) ? domain : undefined;
}

/** Joins the rest of an outer path onto an inner one: `/a` + `/b` = `/a/b`. */
export function joinRest(inner: string, outer: string): string {
  if (outer === '') return inner;
  return inner.replace(/\/$/, '') + outer;
}
