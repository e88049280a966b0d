import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteAccess } from './route-access.js';

/**
 * Headers on every /ipfs and /ipns response, whatever it is (content, listing, redirect, 304, error, HEAD),
 * contract section 5. User content is served on the UI's own origin: `sandbox` gives a document loaded from
 * the gateway an opaque origin and no script, so an uploaded page or SVG cannot read the signed-in UI's
 * storage or call the API as it; `nosniff` keeps a browser from running a body as a type it was not sent as.
 * `Referrer-Policy: same-origin` (issue 22, item 3): a link in the content to another site tells it
 * nothing of the address, while a link to more content here names its page, which is how the window's
 * gateway worker knows the navigation follows from one it signed (renderer/lib/gateway-grants.ts).
 */
export const CONTENT_ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': 'sandbox',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** `/ipfs` or `/ipns` as the first path segment of a raw request URL. */
export function isContentPath(url: string): boolean {
  return /^\/ip[fn]s(?:[/?#]|$)/i.test(url);
}

/**
 * Sets the isolation headers first thing, before the Host guard or authentication can refuse the request,
 * so their error answers carry them too. The gateway's routes are matched by their access setting as well
 * as by path (`access`, the route's config.access), so no spelling of the path that the router still takes for /ipfs/* goes without them.
 */
export function isolateContentResponse(request: FastifyRequest, reply: FastifyReply, access: RouteAccess | undefined): void {
  if (access === 'gateway' || isContentPath(request.url)) reply.headers(CONTENT_ISOLATION_HEADERS);
}
