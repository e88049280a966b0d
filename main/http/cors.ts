import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../shared/error-codes.js';
import { failureEnvelope } from './error-status.js';

const ALLOWED_HEADERS = 'X-Access-Key, X-Access-Secret, X-Access-Signature, Authorization, Content-Type, Range, If-None-Match';
const EXPOSED_HEADERS = 'ipfs-hash, location, Content-Range, Content-Length, Etag, X-Ipfs-Path, X-Ipfs-Roots';
const METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';

/**
 * CORS only for origins named with --allow-origin (contract section 2); every other origin gets no
 * Access-Control-Allow-* header, so browsers keep other sites' pages from reading our answers.
 * Returns true when the request was a preflight that has been answered.
 */
export function applyCors(request: FastifyRequest, reply: FastifyReply, allowOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  const allowed = origin !== undefined && allowOrigins.includes(origin);
  if (allowed) {
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Origin');
    reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
  if (request.method !== 'OPTIONS') return false;
  if (allowed) {
    reply.header('Access-Control-Allow-Methods', METHODS);
    reply.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    reply.header('Access-Control-Max-Age', '600');
    reply.code(204).send();
  } else {
    const refusal = failureEnvelope(ErrorCodes.originNotAllowed, 'origin not allowed');
    reply.code(refusal.code).type('application/json').send(refusal);
  }
  return true;
}
