import { isIPv4, isIPv6 } from 'node:net';
import { ErrorCodes } from '../../shared/error-codes.js';
import { ForbiddenError } from '../base/errors.js';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Host headers already found allowed, with the configured host they were checked against. */
const ALLOWED = new Map<string, string>();
/** Allowed values are few (loopback names and ports); the bound only matters against a flood of them. */
const MAX_ALLOWED = 64;

/** One DNS label: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PORT = /^[0-9]{1,5}$/;
const MAX_NAME_LENGTH = 253;

export interface HostHeader {
  /** Lower-cased; an IPv6 literal keeps its brackets, a name loses a trailing dot. */
  name: string;
  port: number | undefined;
}

function parsePort(text: string): number | undefined | null {
  if (!PORT.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

function isHostName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return false;
  return name.split('.').every((label) => LABEL.test(label));
}

/**
 * A `Host` header read strictly as `host [":" port]` (RFC 9110 section 7.2): an IPv4 address, a
 * bracketed IPv6 address or a DNS name, then at most a numeric port. Anything else (userinfo such as
 * `localhost:@evil.example`, a path, spaces, an empty port) is null: splitting a header like that at
 * its first colon would let `evil.example` pass as `localhost`.
 */
export function parseHostHeader(header: string): HostHeader | null {
  const value = header.toLowerCase();
  let name: string;
  let portText: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1 || !isIPv6(value.slice(1, end))) return null;
    name = value.slice(0, end + 1);
    const rest = value.slice(end + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return null;
      portText = rest.slice(1);
    }
  } else {
    const parts = value.split(':');
    if (parts.length > 2) return null;
    name = parts[0] as string;
    portText = parts[1];
    if (name.endsWith('.')) name = name.slice(0, -1);
    if (!isIPv4(name) && !isHostName(name)) return null;
  }
  if (portText === undefined) return { name, port: undefined };
  const port = parsePort(portText);
  return port === null ? null : { name, port };
}

/** The configured `--host` in the form a Host header names it (IPv6 in brackets). */
function configuredName(configuredHost: string): string {
  const host = configuredHost.toLowerCase();
  return isIPv6(host) ? `[${host}]` : host.replace(/\.$/, '');
}

/**
 * A guard against DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends
 * `Host: evil.example`, which we refuse (contract section 2). A Host that is not a plain host and port
 * is refused too.
 */
export function checkHost(header: string | undefined, configuredHost: string): void {
  if (!header) throw new ForbiddenError('Host header is required', ErrorCodes.hostNotAllowed);
  // Every request runs this with one of a handful of Host values: one that passed is let through at once.
  if (ALLOWED.get(header) === configuredHost) return;
  const host = parseHostHeader(header);
  if (!host) throw new ForbiddenError(`Host ${JSON.stringify(header.slice(0, 100))} is not a host name and port`, ErrorCodes.hostNotAllowed);
  if (LOOPBACK_NAMES.has(host.name) || host.name === configuredName(configuredHost)) {
    if (ALLOWED.size >= MAX_ALLOWED) ALLOWED.clear();
    ALLOWED.set(header, configuredHost);
    return;
  }
  throw new ForbiddenError(`Host ${JSON.stringify(host.name)} is not allowed`, ErrorCodes.hostNotAllowed);
}
