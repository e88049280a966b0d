import { useCallback, useEffect, useRef } from 'react';

/**
 * `run` at most once per `ms`: the first call runs at once, calls during the pause are folded into one
 * run at its end. The Partners page reloads its list on `event: partner`, which many busy users can
 * send each second.
 */
export function useCoalesced(run: () => void, ms: number): () => void {
  const latest = useRef(run);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const owed = useRef(false);
  useEffect(() => {
    latest.current = run;
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) {
      owed.current = true;
      return;
    }
    latest.current();
    const pause = () => {
      timer.current = setTimeout(() => {
        timer.current = null;
        if (!owed.current) return;
        owed.current = false;
        latest.current();
        pause();
      }, ms);
    };
    pause();
  }, [ms]);
}
