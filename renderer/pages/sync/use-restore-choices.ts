import { useState } from 'react';
import { desktopBridge } from '../../desktop-bridge.js';
import { describeError } from '../../lib/messages.js';

export type RestoreConflict = 'beside' | 'replace';
export type RestoreDestination = 'folder' | 'elsewhere';

export interface RestoreChoices {
  conflict: RestoreConflict;
  setConflict: (conflict: RestoreConflict) => void;
  destination: RestoreDestination;
  setDestination: (destination: RestoreDestination) => void;
  /** The other folder, as typed or picked. */
  elsewhere: string;
  setElsewhere: (path: string) => void;
  /** What is wrong with the other folder, or why the picker failed. */
  problem: string | null;
  /** The desktop app's folder picker; null in a browser. */
  pick: (() => Promise<void>) | null;
  /** Where to restore and how, or null once `problem` says why the other folder will not do. */
  read: () => { to: string | undefined; overwrite: boolean } | null;
}

/**
 * The choices of a restore: what happens to a file on disk that differs (kept, the version's copy beside
 * it, by default; or replaced), and where it goes (the synced folder, or another typed or picked). Each
 * opening, a new `opening`, starts again from the safe choices.
 */
export function useRestoreChoices(opening: unknown): RestoreChoices {
  const bridge = desktopBridge();
  const [conflict, setConflict] = useState<RestoreConflict>('beside');
  const [destination, setDestination] = useState<RestoreDestination>('folder');
  const [elsewhere, setElsewhere] = useState('');
  const [pathProblem, setPathProblem] = useState<string | null>(null);
  const [pickProblem, setPickProblem] = useState<string | null>(null);

  // Reset while rendering, as React advises for state that follows a prop.
  const [openedFor, setOpenedFor] = useState<unknown>(null);
  if (opening !== openedFor) {
    setOpenedFor(opening);
    if (opening !== null) {
      setConflict('beside');
      setDestination('folder');
      setElsewhere('');
      setPathProblem(null);
      setPickProblem(null);
    }
  }

  const pick = async () => {
    if (!bridge) return;
    setPickProblem(null);
    try {
      const picked = await bridge.pickFolder();
      if (picked) {
        setElsewhere(picked);
        setPathProblem(null);
      }
    } catch (error) {
      setPickProblem(`The desktop app could not open the folder picker: ${describeError(error)}`);
    }
  };

  const read = () => {
    const to = destination === 'elsewhere' ? elsewhere.trim() : undefined;
    if (to !== undefined && !(to.startsWith('/') || /^[A-Za-z]:[\\/]/.test(to) || to.startsWith('\\\\'))) {
      setPathProblem('Give the full path of a folder on this computer, such as /home/me/restored.');
      return null;
    }
    return { to, overwrite: conflict === 'replace' };
  };

  return {
    conflict,
    setConflict,
    destination,
    setDestination: (value) => {
      setDestination(value);
      setPathProblem(null);
    },
    elsewhere,
    setElsewhere: (path) => {
      setElsewhere(path);
      setPathProblem(null);
    },
    problem: pathProblem ?? pickProblem,
    pick: bridge ? pick : null,
    read,
  };
}
