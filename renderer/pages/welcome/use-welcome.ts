import { useState } from 'react';
import { useLocation } from 'wouter';
import { useSaveSettings, useSettings } from '../../data/settings.js';
import { useAddSyncFolders } from '../../data/sync-actions.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { describeError } from '../../lib/messages.js';
import { folderName } from '../../lib/sync-folders.js';

export interface Welcome {
  /** The owner's first run on this data folder: nothing chosen yet. */
  shown: boolean;
  /** The desktop app's picker, then the folder syncs (a browser goes to the Sync page, where a path is typed). */
  syncFolder: () => Promise<void>;
  uploadFiles: () => void;
  skip: () => void;
  busy: boolean;
  error: string | null;
}

/**
 * The first-run welcome's state: shown to the owner until settings.json's `welcome_seen` is true (another
 * account cannot read the settings, so never sees it). Skipping or taking a step saves it, so no window of
 * this data folder shows it again, in any browser.
 */
export function useWelcome(): Welcome {
  const settings = useSettings();
  const save = useSaveSettings();
  const adder = useAddSyncFolders();
  const [, navigate] = useLocation();
  // Hidden at once; the save's answer keeps it hidden for good.
  const [dismissed, setDismissed] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  const shown = !dismissed && settings.data?.settings.welcome_seen.value === false;

  const seen = () => {
    setDismissed(true);
    void save.run({ welcome_seen: true });
  };
  const syncFolder = async () => {
    const bridge = desktopBridge();
    if (!bridge) {
      seen();
      navigate('/sync');
      return;
    }
    let path: string | null;
    try {
      path = await bridge.pickFolder();
    } catch (error) {
      setPickError(`The desktop app could not open the folder picker: ${describeError(error)}`);
      return;
    }
    if (!path) return;
    const added = await adder.run([{ name: folderName(path), path }]);
    if (!added.ok) return;
    seen();
    navigate('/sync');
  };
  return {
    shown,
    syncFolder,
    uploadFiles: () => {
      seen();
      navigate('/files');
    },
    skip: seen,
    busy: adder.pending,
    error: pickError ?? adder.error,
  };
}
