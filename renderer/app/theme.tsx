/**
 * The theme choice (System / Light / Dark in Settings) and the theme in effect, for components that
 * draw their own colours (charts). Stored in localStorage only when it is not "System".
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { parseThemeChoice, resolveTheme, THEME_STORAGE_KEY, type Theme, type ThemeChoice } from '../lib/theme.js';

export interface ThemeControl {
  choice: ThemeChoice;
  /** The theme shown now (the system's when the choice is "system"). */
  theme: Theme;
  setChoice: (choice: ThemeChoice) => void;
}

const ThemeContext = createContext<ThemeControl | null>(null);
const DARK_QUERY = '(prefers-color-scheme: dark)';

function readChoice(): ThemeChoice {
  try {
    return parseThemeChoice(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(readChoice);
  const [systemDark, setSystemDark] = useState(() => window.matchMedia(DARK_QUERY).matches);

  useEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const changed = () => setSystemDark(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);

  const setChoice = useCallback((next: ThemeChoice) => {
    setChoiceState(next);
    const root = document.documentElement;
    if (next === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', next);
    try {
      if (next === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
      else localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage disabled: the choice holds until the window closes.
    }
  }, []);

  const control = useMemo(() => ({ choice, theme: resolveTheme(choice, systemDark), setChoice }), [choice, systemDark, setChoice]);
  return <ThemeContext.Provider value={control}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeControl {
  const control = useContext(ThemeContext);
  if (!control) throw new Error('useTheme() outside <ThemeProvider>');
  return control;
}
