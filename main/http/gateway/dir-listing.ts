import { NotFoundError } from '../../base/errors.js';
import { inspectNode, type NodeInfo } from '../../content/read/inspect-node.js';
import { listDirectory } from '../../content/read/list-directory.js';
import { resolvePath } from '../../content/read/resolve-path.js';
import { serveFile } from './file.js';
import { HTML_VERSION, replyNotModified, setCacheHeaders } from './headers.js';
import { escapeHtml, formatBytes, pageEnd, pageStart } from './html.js';
import { encodePath, encodeSegment } from './request-target.js';
import { sendBody } from './send-body.js';
import type { GatewayContext } from './types.js';

const encoder = new TextEncoder();
/** Rows per written chunk: a 10k-entry listing streams in pieces instead of one string. */
const ROWS_PER_CHUNK = 200;

/**
 * A UnixFS directory: 301 to the trailing-slash URL first (relative links need it), then its index.html if
 * it has one, else a generated HTML listing (not immutable: the markup belongs to this version).
 */
export async function serveDirectory(ctx: GatewayContext, info: NodeInfo): Promise<void> {
  const { target, reply } = ctx;
  if (!target.trailingSlash) {
    // The path exactly as sent plus "/": a signed client follows with its signature, which must verify
    // over the canonical form of the new path (re-encoding the names could change it).
    void reply.redirect(`${target.rawPath}/${target.search}`, 301);
    return;
  }
  const index = await findIndex(ctx, info);
  if (index !== undefined) {
    await serveFile(ctx, index, { name: 'index.html', etagCid: info.cid });
    return;
  }
  setCacheHeaders(ctx, { etag: `"DirIndex-${HTML_VERSION}_CID-${info.cid.toString()}"`, immutable: false });
  if (replyNotModified(ctx)) return;
  reply.header('content-type', 'text/html; charset=utf-8');
  sendBody(ctx, 200, () => renderListing(ctx, info));
}

async function findIndex(ctx: GatewayContext, info: NodeInfo): Promise<NodeInfo | undefined> {
  let found;
  try {
    found = await resolvePath(ctx.deps.blockstore, info.cid, ['index.html'], { signal: ctx.signal });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const index = await inspectNode(ctx.deps.blockstore, found.cid, { signal: ctx.signal });
  return index.kind === 'file' ? index : undefined;
}

async function* renderListing(ctx: GatewayContext, info: NodeInfo): AsyncGenerator<Uint8Array> {
  const { namespace, rootText, segments } = ctx.target;
  const here = encodePath(namespace, rootText, segments);
  const crumbs = [`<a href="${escapeHtml(encodePath(namespace, rootText, []))}">${escapeHtml(rootText)}</a>`];
  segments.forEach((segment, i) => {
    crumbs.push(`<a href="${escapeHtml(encodePath(namespace, rootText, segments.slice(0, i + 1)))}">${escapeHtml(segment)}</a>`);
  });
  let html =
    pageStart(`/${namespace}/${[rootText, ...segments].join('/')}/`) +
    `<h1>Index of /${namespace}/${crumbs.join('/')}</h1>\n` +
    `<p class="ipfs-hash" translate="no">${escapeHtml(info.cid.toString())}</p>\n<table>\n`;
  // No parent link at the content root: there is nothing above it to go to.
  if (segments.length > 0) html += `<tr><td><a href="${escapeHtml(here)}/..">..</a></td><td></td><td></td></tr>\n`;
  let rows = 0;
  for await (const entry of listDirectory(ctx.deps.blockstore, info, { signal: ctx.signal })) {
    const name = encodeSegment(entry.name);
    const hashHref = `/ipfs/${entry.cid.toString()}?filename=${encodeURIComponent(name)}`;
    html +=
      `<tr><td><a href="${escapeHtml(`${here}/${name}`)}">${escapeHtml(entry.name)}</a></td>` +
      `<td><a class="ipfs-hash" translate="no" href="${escapeHtml(hashHref)}">${escapeHtml(entry.cid.toString())}</a></td>` +
      `<td>${formatBytes(entry.size)}</td></tr>\n`;
    if (++rows % ROWS_PER_CHUNK === 0) {
      yield encoder.encode(html);
      html = '';
    }
  }
  yield encoder.encode(`${html}</table>\n${pageEnd}`);
}
