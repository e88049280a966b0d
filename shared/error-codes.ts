/**
 * The stable `error` strings of failure envelopes (`{"code":<status>,"msg":"…","error":"<string>"}`, contract
 * section 3), the one list of them; docs/errors.md documents each. Domains throw them (main/base/errors.ts), the
 * HTTP layer gives each one status (main/http/error-status.ts), and clients switch on them, never on `msg`'s
 * wording. A string, once published, keeps its meaning: add new ones rather than reuse an old one.
 */
export const ErrorCodes = {
  /** 400: a parameter or the body is missing, malformed or out of range (bad JSON, a broken form or URL too). */
  badInput: 'bad_input',
  /** 401: no or bad credentials, a stale `ts`, an expired session, an upload address that is bad, used or expired. */
  unauthenticated: 'unauthenticated',
  /** 402: a partner's balance does not cover a plan's fee; nothing was charged. */
  balance: 'balance',
  /** 403: the key lacks the permission, or the account is not the owner or not a partner. */
  permission: 'permission',
  /** 403: a plan limit would be passed; `limit` names the counter (pinned_count, pinned_bytes, ingress, egress, ipns). */
  planLimit: 'plan_limit',
  /** 403: the `Host` header names no host this server answers for (the guard against DNS rebinding). */
  hostNotAllowed: 'host_not_allowed',
  /** 403: a CORS preflight from an origin not given with --allow-origin. */
  originNotAllowed: 'origin_not_allowed',
  /** 403: this node keeps no more of something it bounds in all (records of names held elsewhere). */
  capacity: 'capacity',
  /** 404: no such CID, path, name, key, user, folder or route. */
  notFound: 'not_found',
  /** 406: the content cannot be answered in the format asked for (Accept, `format=`, Content-Type of a PUT). */
  notAcceptable: 'not_acceptable',
  /** 408: the client stopped sending (an upload's step 2 idle too long, headers too slow). */
  requestTimeout: 'request_timeout',
  /** 409: the change conflicts with what is there (already pinned, duplicate name, a folder already synced). */
  conflict: 'conflict',
  /** 412: the content is not held here and the request asked for cached content only (`only-if-cached`). */
  notCached: 'not_cached',
  /** 413: the body is larger than declared or than this call takes. */
  tooLarge: 'too_large',
  /** 414: a path parameter is longer than the server reads. */
  uriTooLong: 'uri_too_long',
  /** 415: the `Content-Type` header cannot be read. */
  mediaType: 'media_type',
  /** 416: a `Range` that starts past the end of the content. */
  range: 'range',
  /** 423: the resource is held by work under way (a folder still importing); try again shortly. */
  locked: 'locked',
  /** 429: too many at once of something bounded per client (open event streams of one access key). */
  tooManyRequests: 'too_many_requests',
  /** 431: the request line and headers are larger than the server reads. */
  headersTooLarge: 'headers_too_large',
  /** 500: a fault of the service's own; the message says nothing of it, the log does. */
  internal: 'internal',
  /** 501: something this server does not implement (a routing API it lacks, a path inside an IPLD value). */
  notImplemented: 'not_implemented',
  /** 502: a server Pinfold depends on (the DNS server of DNSLink) failed to answer; worth a retry. */
  badGateway: 'bad_gateway',
  /** 508: a DNSLink or IPNS name that leads back to itself, or through more names than are followed. */
  loop: 'loop',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export const ERROR_CODES: readonly ErrorCode[] = Object.values(ErrorCodes);

/** True for a string of the list; a client met by a string it does not know falls back on the status. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The string each status usually stands for, where one answer carries none: a 4xx the HTTP framework raised
 * itself (the server answers it with this string) and, in the window, an answer without a body (a HEAD) or
 * from a service older than the `error` field. Never a plan limit: a bare 403 is a missing permission.
 */
export const USUAL_CODE_OF_STATUS: Readonly<Partial<Record<number, ErrorCode>>> = {
  400: ErrorCodes.badInput,
  401: ErrorCodes.unauthenticated,
  402: ErrorCodes.balance,
  403: ErrorCodes.permission,
  404: ErrorCodes.notFound,
  406: ErrorCodes.notAcceptable,
  408: ErrorCodes.requestTimeout,
  409: ErrorCodes.conflict,
  413: ErrorCodes.tooLarge,
  414: ErrorCodes.uriTooLong,
  415: ErrorCodes.mediaType,
  416: ErrorCodes.range,
  423: ErrorCodes.locked,
  429: ErrorCodes.tooManyRequests,
  431: ErrorCodes.headersTooLarge,
  500: ErrorCodes.internal,
  502: ErrorCodes.badGateway,
  508: ErrorCodes.loop,
};
