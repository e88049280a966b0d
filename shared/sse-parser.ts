/**
 * An incremental parser of the `text/event-stream` format, after the WHATWG HTML standard's "event
 * stream interpretation": lines end with CRLF, LF or CR (also when a CRLF is split between chunks),
 * `:` starts a comment, one space after the colon is dropped, `data` lines join with "\n", an event is
 * dispatched at a blank line and only when it has data, `retry` takes digits only, an unfinished event
 * at the end of the stream is dropped. Pure: it is fed decoded text and answers what it completed.
 * Shared: the window's event stream and the desktop main process's folder monitor both read the service's events.
 */

export type SseOutput =
  | { kind: 'event'; event: string; data: string; id: string }
  /** The stream asked for a reconnection delay (`retry:` in milliseconds). */
  | { kind: 'retry'; ms: number };

export interface SseParser {
  /** Feeds the next piece of decoded text; answers the events and retry changes it completed, in order. */
  push(text: string): SseOutput[];
}

export function createSseParser(): SseParser {
  let pending = '';
  let atStart = true;
  // A CR ended the previous chunk: an LF at the start of the next one belongs to it.
  let skipLeadingLf = false;
  let eventType = '';
  let data = '';
  let hasData = false;
  let lastEventId = '';

  const line = (text: string, out: SseOutput[]): void => {
    if (text === '') {
      if (hasData) out.push({ kind: 'event', event: eventType || 'message', data, id: lastEventId });
      eventType = '';
      data = '';
      hasData = false;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        eventType = value;
        break;
      case 'data':
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) out.push({ kind: 'retry', ms: Number(value) });
        break;
      default:
        break;
    }
  };

  return {
    push(text) {
      const out: SseOutput[] = [];
      let chunk = text;
      if (atStart && chunk.length > 0) {
        if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
        atStart = false;
      }
      if (skipLeadingLf && chunk.length > 0) {
        if (chunk.startsWith('\n')) chunk = chunk.slice(1);
        skipLeadingLf = false;
      }
      pending += chunk;
      let from = 0;
      for (;;) {
        const cr = pending.indexOf('\r', from);
        const lf = pending.indexOf('\n', from);
        if (cr === -1 && lf === -1) break;
        const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        line(pending.slice(from, end), out);
        if (pending[end] === '\r') {
          if (end + 1 === pending.length) {
            skipLeadingLf = true;
            from = end + 1;
            break;
          }
          from = pending[end + 1] === '\n' ? end + 2 : end + 1;
        } else from = end + 1;
      }
      pending = pending.slice(from);
      return out;
    },
  };
}
