import { useMemo } from 'react';
import type { UploadSettings } from '../../../shared/api-types.js';
import { DEFAULT_UNIXFS_PROFILE, isUnixfsProfileName, UNIXFS_PROFILES, type UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import { useGatewayAccess } from '../../app/gateway-access.js';
import { Checkbox } from '../../components/checkbox.js';
import { DropZone } from '../../components/drop-zone.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { useUploadSettings } from '../../data/uploads.js';
import { removeRecentUpload } from '../../lib/recent-uploads.js';
import { PinUploadDialog } from './pin-upload-dialog.js';
import { RecentUploadsSection } from './recent-uploads-section.js';
import { UploadPickers } from './upload-pickers.js';
import { UploadsPanel } from './uploads-panel.js';
import { useFinishedUploads } from './use-finished-uploads.js';
import { useRecentPinStates } from './use-recent-pin-states.js';
import { useRecentUploads } from './use-recent-uploads.js';
import { useStoredFlag } from './use-stored-flag.js';
import { useUploadDrops } from './use-upload-drops.js';
import { useUploadPins } from './use-upload-pins.js';
import { useUploads } from './use-uploads.js';
import './files.css';

/**
 * Files: drop files or folders anywhere on the page (or pick them) to upload them, each file to its own
 * CID and each folder to one directory CID; progress per upload and in total, Cancel that stops an upload
 * on the service too, and the recent uploads of this browser with their CID, Copy, Open and pin state
 * (as the service has it: looked up when the page opens, then following `event: pin`).
 */
export function FilesPage() {
  const settings = useUploadSettings();
  const layout = useMemo(() => layoutOf(settings.data), [settings.data]);
  const recents = useRecentUploads(settings.data?.account_uuid ?? null);
  const [pinUploads, setPinUploads] = useStoredFlag('pinfold.files.pin-uploads', true);
  const pins = useUploadPins();
  const shown = useRecentPinStates(recents, pins.pinning);
  const finished = useFinishedUploads({ change: recents.change, pinUploads, pinFinished: pins.pinFinished });
  const uploads = useUploads({ layout, onUploaded: finished.onUploaded });
  const drops = useUploadDrops(uploads.add);
  const access = useGatewayAccess();

  const ready = settings.data !== undefined;
  const publicGateway = settings.data?.public_gateway === true;
  return (
    <Page title="Files" description="Upload files and folders to get their CIDs, and pin what you want to keep.">
      <DropZone
        overlayLabel="Drop files or folders to upload them"
        onDrop={drops.onDrop}
        disabled={!ready}
        hint={
          <>
            <strong>Drop files or folders anywhere on this page</strong>, or choose them. A file gets its own CID; a folder becomes one directory CID, built in
            this browser the way the service would build it.
          </>
        }
        actions={<UploadPickers onPick={drops.add} disabled={!ready} />}
      />
      <Checkbox
        label="Pin each upload when it is done, named after its file or folder"
        hint="A pinned upload stays until you unpin it. One that is not pinned is deleted by a later garbage collection."
        checked={pinUploads}
        onChange={(event) => setPinUploads(event.target.checked)}
      />
      {settings.error ? <InlineError message={`Uploads are not available: ${settings.error}`} onRetry={settings.reload} /> : null}
      <InlineError message={drops.error} />
      {uploads.queue.jobs.length > 0 ? <UploadsPanel uploads={uploads} /> : null}
      <RecentUploadsSection
        entries={shown}
        fresh={finished.fresh}
        pinErrors={pins.errors}
        openable={access !== 'unavailable' || publicGateway}
        openNote={openNote(access, publicGateway)}
        onPin={pins.dialog.open}
        onRemove={(upload) => recents.change((list) => removeRecentUpload(list, upload.cid))}
      />
      <PinUploadDialog upload={pins.dialog.upload} busy={pins.dialog.busy} error={pins.dialog.error} onCancel={pins.dialog.close} onPin={pins.dialog.pin} />
      <p className="visually-hidden" role="status">
        {finished.announcement}
      </p>
    </Page>
  );
}

/** How this service lays out new content (its CID profile), which a folder's CAR is built with; null until the settings are in. */
function layoutOf(settings: UploadSettings | undefined): UnixfsImportOptions | null {
  if (!settings) return null;
  return UNIXFS_PROFILES[isUnixfsProfileName(settings.cid_profile) ? settings.cid_profile : DEFAULT_UNIXFS_PROFILE];
}

function openNote(access: ReturnType<typeof useGatewayAccess>, publicGateway: boolean): string {
  if (access !== 'unavailable') return 'Open shows an upload in a new tab, sent with this window’s key (never in the address).';
  if (publicGateway) return 'Open shows an upload in a new tab, from the service’s public gateway.';
  return 'Open is not offered: the gateway needs a key, which this browser can add to a link only when the window is at a localhost address. Copy the CID instead, or start the service with --public-gateway.';
}
