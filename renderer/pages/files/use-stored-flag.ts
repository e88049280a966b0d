import { useCallback, useState } from 'react';

/** A yes/no choice of this browser (not a secret), kept in localStorage under `key`. */
export function useStoredFlag(key: string, initial: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => {
    try {
      const stored = localStorage.getItem(key);
      return stored === null ? initial : stored === '1';
    } catch {
      return initial;
    }
  });
  const set = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        localStorage.setItem(key, next ? '1' : '0');
      } catch {
        // Not kept: the choice holds for this page.
      }
    },
    [key],
  );
  return [value, set];
}
