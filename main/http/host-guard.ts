import { ForbiddenError } from '../base/errors.js';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The host part of a `Host` header, without the port (IPv6 keeps its brackets). */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * A guard against DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends
 * `Host: evil.example`, which we refuse (contract section 2).
 */
export function checkHost(header: string | undefined, configuredHost: string): void {
  if (!header) throw new ForbiddenError('Host header is required');
  const name = hostName(header);
  const configured = hostName(configuredHost.includes(':') && !configuredHost.startsWith('[') ? `[${configuredHost}]` : configuredHost);
  if (LOOPBACK_NAMES.has(name) || name === configured || name === configuredHost.toLowerCase()) return;
  throw new ForbiddenError(`Host ${JSON.stringify(name)} is not allowed`);
}
