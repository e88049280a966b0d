/** The body of an event stream read with fetch, through the pure SSE parser (EventSource cannot send the key headers). */
import { createSseParser } from '../../shared/sse-parser.js';

export interface SseHandlers {
  /** The service's `retry:`, in milliseconds. */
  retry(ms: number): void;
  event(event: string, data: string): void;
}

/** Reads `response`'s body until it ends or `signal` aborts, handing on each `retry:` and each event. */
export async function readSse(response: Response, signal: AbortSignal, handlers: SseHandlers): Promise<void> {
  const body = response.body;
  if (!body) return;
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      for (const output of parser.push(decoder.decode(value, { stream: true }))) {
        if (signal.aborted) break;
        if (output.kind === 'retry') handlers.retry(output.ms);
        else handlers.event(output.event, output.data);
      }
      // A handler that stopped the stream ends the read here, not at the next chunk (which may be long in coming).
      if (signal.aborted) break;
    }
  } finally {
    reader.releaseLock();
  }
}
