import type { ServiceEventName, ServiceEvents } from '../../../shared/api-types.js';

/**
 * The text of server-sent events (WHATWG HTML, "Server-sent events"). Every message ends with a blank
 * line; JSON.stringify never writes a line break, so `data` is always one line.
 */

export function sseEvent<K extends ServiceEventName>(name: K, data: ServiceEvents[K]): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, it keeps proxies and idle-connection timers from closing the stream. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** How long the client waits before it reconnects after the stream ends. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}
