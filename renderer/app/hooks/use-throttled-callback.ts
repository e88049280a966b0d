import { useCallback, useEffect, useRef } from 'react';
import { createThrottle, type Throttle } from '../../lib/throttle.js';
import { windowTimers } from '../dom-environment.js';

/**
 * `run` at most once per `pauseMs` (the first call at once, the calls of a burst once after it); the
 * latest `run` is called, and nothing runs after the component is gone.
 *
 *   const reloadSoon = useThrottledCallback(pins.reload, 1000);
 *   useEvent('pin', () => reloadSoon());
 */
export function useThrottledCallback(run: () => void, pauseMs: number): () => void {
  const latest = useRef(run);
  const throttle = useRef<Throttle | null>(null);
  useEffect(() => {
    latest.current = run;
  });
  useEffect(() => {
    const created = createThrottle(() => latest.current(), pauseMs, windowTimers);
    throttle.current = created;
    return () => {
      created.cancel();
      throttle.current = null;
    };
  }, [pauseMs]);
  return useCallback(() => throttle.current?.call(), []);
}
