import { useEffect } from 'react';
import { useSettings } from '../data/settings.js';
import { useTheme } from './theme.js';

/**
 * For the owner, the theme saved in the data folder is the source of truth: the window applies it once
 * loaded and whenever a save changes it (localStorage stays the cache that paints the first frame). Another
 * account (403) keeps this browser's choice.
 */
export function ThemeFromService() {
  const settings = useSettings();
  const saved = settings.data?.settings.theme.value;
  const { setChoice } = useTheme();
  useEffect(() => {
    if (saved !== undefined) setChoice(saved);
  }, [saved, setChoice]);
  return null;
}
