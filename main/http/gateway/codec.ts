import { NotAcceptableError } from '../../base/errors.js';
import { dagJsonView } from '../../content/read/dag-view.js';
import { inspectNode, type NodeInfo, type NodeKind } from '../../content/read/inspect-node.js';
import { serveFile } from './file.js';
import { HTML_VERSION, contentDisposition, replyNotModified, setCacheHeaders } from './headers.js';
import { escapeHtml, pageEnd, pageStart } from './html.js';
import type { ResponseFormat } from './negotiate.js';
import { sendBody, sendRanged } from './send-body.js';
import type { GatewayContext } from './types.js';

type CodecFormat = Extract<ResponseFormat, 'dag-json' | 'dag-cbor' | 'json' | 'cbor'>;

const mediaTypes: Record<CodecFormat, string> = {
  'dag-json': 'application/vnd.ipld.dag-json',
  'dag-cbor': 'application/vnd.ipld.dag-cbor',
  json: 'application/json',
  cbor: 'application/cbor',
};

const nativeFormat: Partial<Record<NodeKind, CodecFormat>> = {
  'dag-json': 'dag-json',
  'dag-cbor': 'dag-cbor',
  json: 'json',
  cbor: 'cbor',
};

/** Blocks are served as stored: JSON codecs as either JSON format, CBOR codecs as either CBOR format (IPIP-0524: no conversion). */
const servable: Record<CodecFormat, readonly CodecFormat[]> = {
  'dag-json': ['dag-json', 'json'],
  json: ['dag-json', 'json'],
  'dag-cbor': ['dag-cbor', 'cbor'],
  cbor: ['dag-cbor', 'cbor'],
};

function isCodecFormat(format: ResponseFormat | null): format is CodecFormat {
  return format === 'dag-json' || format === 'dag-cbor' || format === 'json' || format === 'cbor';
}

/**
 * dag-json / dag-cbor / json / cbor responses. A block whose codec does not match the asked format: 406.
 * `format=json|cbor` on a UnixFS file serves the file's bytes with that Content-Type.
 */
export async function serveCodec(ctx: GatewayContext, known?: NodeInfo): Promise<void> {
  const info = known ?? (await inspectNode(ctx.deps.blockstore, ctx.resolved.cid, { signal: ctx.signal }));
  const asked = isCodecFormat(ctx.choice.format) ? ctx.choice.format : null;
  if (info.kind === 'file' && (asked === 'json' || asked === 'cbor')) {
    await serveFile(ctx, info, { name: ctx.target.segments.at(-1), contentType: mediaTypes[asked] });
    return;
  }
  const native = nativeFormat[info.kind];
  if (native === undefined || (asked !== null && !servable[native].includes(asked))) {
    throw new NotAcceptableError(`format: ${info.cid.toString()} is ${info.kind}, it cannot be served as ${asked ?? 'a codec view'}`);
  }
  if (asked === null && ctx.choice.wantsHtml) {
    serveDagIndex(ctx, info);
    return;
  }
  const served = asked ?? native;
  const { reply, choice } = ctx;
  setCacheHeaders(ctx, { etag: `"${info.cid.toString()}.${served}"`, immutable: true });
  if (replyNotModified(ctx)) return;
  reply.header('content-type', mediaTypes[served]);
  const jsonLike = served === 'dag-json' || served === 'json';
  const kind = choice.download || !jsonLike ? 'attachment' : 'inline';
  reply.header('content-disposition', contentDisposition(kind, choice.filename ?? `${info.cid.toString()}.${jsonLike ? 'json' : 'cbor'}`));
  sendRanged(ctx, info.block.byteLength, (offset, length) => info.block.subarray(offset, offset + length));
}

/** An HTML page showing the node as dag-json, for browsers (Etag DagIndex-..., not immutable). */
function serveDagIndex(ctx: GatewayContext, info: NodeInfo): void {
  setCacheHeaders(ctx, { etag: `"DagIndex-${HTML_VERSION}_CID-${info.cid.toString()}"`, immutable: false });
  if (replyNotModified(ctx)) return;
  ctx.reply.header('content-type', 'text/html; charset=utf-8');
  const view = new TextDecoder().decode(dagJsonView(info.cid, info.block));
  const html =
    pageStart(info.cid.toString()) + `<h1>${escapeHtml(info.kind)} ${escapeHtml(info.cid.toString())}</h1>\n<pre>${escapeHtml(view)}</pre>\n` + pageEnd;
  const bytes = new TextEncoder().encode(html);
  sendBody(ctx, 200, () => bytes, bytes.byteLength);
}
