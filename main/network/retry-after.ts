/**
 * Milliseconds a `Retry-After` header asks to wait (RFC 9110 10.2.3: delay-seconds or an HTTP-date), or
 * undefined when it is absent or unreadable. A date in the past means now.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
