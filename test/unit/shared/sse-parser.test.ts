import { describe, expect, it } from 'vitest';
import { createSseParser, type SseOutput } from '../../../shared/sse-parser.js';

/** Feeds the chunks one by one and collects everything the parser completed. */
function parse(...chunks: string[]): SseOutput[] {
  const parser = createSseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

const event = (name: string, data: string, id = '') => ({ kind: 'event', event: name, data, id });

describe('createSseParser', () => {
  it('reads the stream of /api/v0/events: retry, a comment, named events with JSON data', () => {
    expect(parse('retry: 3000\n\n: keep-alive\n\nevent: usage\ndata: {"pinned_count":1}\n\nevent: pin\ndata: {"cid":"bafy"}\n\n')).toEqual([
      { kind: 'retry', ms: 3000 },
      event('usage', '{"pinned_count":1}'),
      event('pin', '{"cid":"bafy"}'),
    ]);
  });

  it('completes an event split anywhere between chunks, including inside the field name and the blank line', () => {
    const text = 'event: pin\ndata: {"cid":"bafy"}\n\n';
    for (let at = 1; at < text.length; at += 1) {
      expect(parse(text.slice(0, at), text.slice(at)), `split at ${at}`).toEqual([event('pin', '{"cid":"bafy"}')]);
    }
    expect(parse(...text.split(''))).toEqual([event('pin', '{"cid":"bafy"}')]);
  });

  it('accepts CRLF, LF and CR line ends, also a CRLF split between chunks', () => {
    expect(parse('data: a\r\n\r\ndata: b\r\rdata: c\n\n')).toEqual([event('message', 'a'), event('message', 'b'), event('message', 'c')]);
    expect(parse('data: a\r', '\n', '\r', '\ndata: b\n\n')).toEqual([event('message', 'a'), event('message', 'b')]);
    // A lone CR at the end of a chunk, then a chunk of just "\n": one line end, not two.
    expect(parse('data: a\r', '\n', 'data: b\n\n')).toEqual([event('message', 'a\nb')]);
  });

  it('joins data lines with "\\n", drops one space after the colon, takes a field without a colon as empty', () => {
    expect(parse('data:  two spaces\ndata\ndata:x\n\n')).toEqual([event('message', ' two spaces\n\nx')]);
  });

  it('dispatches only events with data, and resets the type after each', () => {
    expect(parse('event: pin\n\ndata: a\n\n')).toEqual([event('message', 'a')]);
  });

  it('keeps the last event id, refusing one with NUL', () => {
    expect(parse('id: 7\ndata: a\n\nid: 8\0\ndata: b\n\n')).toEqual([event('message', 'a', '7'), event('message', 'b', '7')]);
  });

  it('takes retry only as digits and ignores unknown fields and comments', () => {
    expect(parse('retry: 1e3\nretry: -5\nretry: 250\nfoo: bar\n: note\ndata: a\n\n')).toEqual([{ kind: 'retry', ms: 250 }, event('message', 'a')]);
  });

  it('drops a leading BOM once (a later one makes an unknown field), and an unfinished event at the end', () => {
    expect(parse('\uFEFFdata: a\n\n\uFEFFdata: b\n\ndata: never finished\n')).toEqual([event('message', 'a')]);
  });
});
