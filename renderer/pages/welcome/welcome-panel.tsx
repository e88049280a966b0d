import { Button } from '../../components/button.js';
import { InlineError } from '../../components/inline-error.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { useWelcome } from './use-welcome.js';
import './welcome.css';

/** The owner's first run: what Pinfold is, in two sentences, and its two first steps; skippable, shown once per data folder. */
export function WelcomePanel() {
  const welcome = useWelcome();
  if (!welcome.shown) return null;
  const inDesktopApp = desktopBridge() !== null;
  return (
    <section className="welcome-panel" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Welcome to Pinfold</h2>
      <p>
        Pinfold keeps your files on this computer as IPFS content: every file gets a CID, a permanent address that anyone you share it with can fetch and check.
        Sync a folder to keep each version of it pinned, or upload files to share them.
      </p>
      <div className="welcome-steps">
        <Button variant="primary" icon="plus" busy={welcome.busy} busyLabel="Adding…" onClick={() => void welcome.syncFolder()}>
          {inDesktopApp ? 'Choose a folder to sync…' : 'Sync a folder'}
        </Button>
        <Button icon="upload" onClick={welcome.uploadFiles}>
          Upload files
        </Button>
        <Button variant="ghost" onClick={welcome.skip}>
          Skip
        </Button>
      </div>
      <p className="field-hint">
        {inDesktopApp ? 'You can also drop a folder on the Sync page later.' : 'In a browser, the Sync page takes a folder’s path on this computer.'}
      </p>
      <InlineError message={welcome.error} />
    </section>
  );
}
