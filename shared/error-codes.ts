/**
 * Stable error codes. The HTTP layer maps each code to one status (main/http/error-status.ts);
 * the renderer uses them to tell failures apart without parsing messages.
 */
export const ErrorCodes = {
  badInput: 'bad_input',
  unauthorized: 'unauthorized',
  paymentRequired: 'payment_required',
  forbidden: 'forbidden',
  limitReached: 'limit_reached',
  notFound: 'not_found',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  /** The client stopped sending a request body (an upload's step 2 idle too long): 408. */
  requestTimeout: 'request_timeout',
  locked: 'locked',
  /** Too many at once of something bounded per client (open event streams of one access key): 429. */
  tooManyRequests: 'too_many_requests',
  notAcceptable: 'not_acceptable',
  rangeNotSatisfiable: 'range_not_satisfiable',
  /** A server we depend on (the DNS server of DNSLink) failed to answer: 502, not our fault, worth a retry. */
  badGateway: 'bad_gateway',
  /** A DNSLink or IPNS name that leads back to itself, or through more names than we follow: 508. */
  loopDetected: 'loop_detected',
  internal: 'internal',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
