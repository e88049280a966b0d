import { useSyncExternalStore } from 'react';
import { formatDateTime, formatRelative } from '../lib/format.js';
import './identifiers.css';

/**
 * One clock for every RelativeTime on the page: it ticks every 30 s while something shows a relative
 * time and the window is visible, and not at all otherwise.
 */
const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function tick(): void {
  now = Date.now();
  for (const listener of [...listeners]) listener();
}

function syncTimer(): void {
  const wanted = listeners.size > 0 && document.visibilityState === 'visible';
  if (wanted && timer === null) {
    tick();
    timer = setInterval(tick, TICK_MS);
  } else if (!wanted && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) document.addEventListener('visibilitychange', syncTimer);
  syncTimer();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) document.removeEventListener('visibilitychange', syncTimer);
    syncTimer();
  };
}

/** "5 minutes ago", with the exact date and time as a tooltip and in `dateTime`. */
export function RelativeTime({ unixSeconds }: { unixSeconds: number }) {
  const current = useSyncExternalStore(subscribe, () => now);
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return <span className="muted">—</span>;
  const date = new Date(unixSeconds * 1000);
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(unixSeconds)}>
      {formatRelative(unixSeconds, current)}
    </time>
  );
}
