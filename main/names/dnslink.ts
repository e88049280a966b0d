import { Resolver } from 'node:dns/promises';
import { ErrorCodes } from '../../shared/error-codes.js';
import { AppError, BadInputError } from '../base/errors.js';
import { parseContentPath } from './content-path.js';

/** TXT records of a host, each as its character-strings; null when the host has none (NXDOMAIN, NODATA). */
export type TxtLookup = (hostname: string) => Promise<string[][] | null>;

/**
 * The DNS server could not answer (timeout, refused, SERVFAIL): not the client's fault, not "no record", and
 * not a fault of ours either: 502, as a gateway answers when its upstream fails.
 */
export class DnsLookupError extends AppError {
  override readonly name = 'DnsLookupError';
  constructor(message: string) {
    super(ErrorCodes.badGateway, message);
  }
}

const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/**
 * TXT lookups through `server` (`HOST:PORT`, as `--dns-resolver` gives it; HOST an IP address or
 * `localhost`) or, when undefined, the system's resolvers.
 */
export function createTxtLookup(server: string | undefined, options: { timeoutMs?: number; tries?: number } = {}): TxtLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: options.tries ?? 2 });
  if (server !== undefined) resolver.setServers([parseDnsServer(server)]);
  return async (hostname) => {
    try {
      return await resolver.resolveTxt(hostname);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && NO_RECORD_CODES.has(code)) return null;
      throw new DnsLookupError(`DNS lookup of ${hostname} failed (${typeof code === 'string' ? code : 'error'})`);
    }
  };
}

/** `HOST:PORT` → the form `Resolver.setServers` takes (`1.2.3.4:53`, `[::1]:53`). */
export function parseDnsServer(text: string): string {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (match === null || port < 1 || port > 65535) throw new BadInputError('dns-resolver must be HOST:PORT');
  const v6 = match[1];
  if (v6 !== undefined) return `[${v6}]:${port}`;
  const host = match[2] === 'localhost' ? '127.0.0.1' : (match[2] ?? '');
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) throw new BadInputError('dns-resolver HOST must be an IP address');
  return `${host}:${port}`;
}

/**
 * One DNSLink step: the `dnslink=` value of `_dnslink.<domain>`, else of `<domain>` itself. Several valid
 * entries: the lexicographically first wins (DNSLink spec), so the answer does not depend on record order.
 * Entries that are not `/ipfs/...` or `/ipns/...` paths are ignored. Null when there is none.
 */
export async function lookupDnsLink(txt: TxtLookup, domain: string): Promise<string | null> {
  for (const host of [`_dnslink.${domain}`, domain]) {
    const records = await txt(host);
    const values = (records ?? [])
      .map((chunks) => chunks.join(''))
      .filter((entry) => entry.startsWith('dnslink='))
      .map((entry) => entry.slice('dnslink='.length).trim())
      .filter((value) => parseContentPath(value) !== undefined)
      .sort();
    if (values[0] !== undefined) return values[0];
  }
  return null;
}
