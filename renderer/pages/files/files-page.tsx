import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_UNIXFS_PROFILE, isUnixfsProfileName, UNIXFS_PROFILES } from '../../../shared/unixfs-profiles.js';
import { ApiError } from '../../api/api-error.js';
import { useGatewayAccess } from '../../app/gateway-access.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { Checkbox } from '../../components/checkbox.js';
import { DropZone } from '../../components/drop-zone.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { useEvent } from '../../events/events-provider.js';
import { isRemovedEvent } from '../../events/service-events.js';
import { describeError } from '../../lib/messages.js';
import { addRecentUpload, removeRecentUpload, withPinStatus, type RecentPinStatus, type RecentUpload } from '../../lib/recent-uploads.js';
import { DropReadError, sourcesFromDrop, type UploadSource } from './dropped-items.js';
import { MAX_PIN_NAME, PinUploadDialog } from './pin-upload-dialog.js';
import { RecentUploadsSection } from './recent-uploads-section.js';
import { UploadPickers } from './upload-pickers.js';
import { UploadsPanel } from './uploads-panel.js';
import { useRecentUploads } from './use-recent-uploads.js';
import { useStoredFlag } from './use-stored-flag.js';
import { useUploads, type Uploaded } from './use-uploads.js';
import './files.css';

/** Pin states of the recent uploads asked for at once when the page opens. */
const PIN_LOOKUPS_AT_ONCE = 4;

/**
 * Files: drop files or folders anywhere on the page (or pick them) to upload them, each file to its own
 * CID and each folder to one directory CID; progress per upload and in total, Cancel that stops an upload
 * on the service too, and the recent uploads of this browser with their CID, Copy, Open and pin state.
 */
export function FilesPage() {
  const api = useApi();
  const settings = useResource((signal) => api.uploads.settings(signal), [api]);
  const layout = useMemo(() => {
    const name = settings.data?.cid_profile;
    return settings.data ? UNIXFS_PROFILES[isUnixfsProfileName(name) ? name : DEFAULT_UNIXFS_PROFILE] : null;
  }, [settings.data]);
  const recents = useRecentUploads(settings.data?.account_uuid ?? null);
  const [pinUploads, setPinUploads] = useStoredFlag('pinfold.files.pin-uploads', true);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [pinErrors, setPinErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const [dropError, setDropError] = useState<string | null>(null);
  const [pinTarget, setPinTarget] = useState<RecentUpload | null>(null);

  const setPinError = useCallback((cid: string, message: string | null) => {
    setPinErrors((current) => {
      if (message === null && !current.has(cid)) return current;
      const next = new Map(current);
      if (message === null) next.delete(cid);
      else next.set(cid, message);
      return next;
    });
  }, []);
  const { change: changeRecents } = recents;
  const setPinStatus = useCallback((cid: string, status: RecentPinStatus) => changeRecents((list) => withPinStatus(list, cid, status)), [changeRecents]);
  const entries = useRef(recents.entries);
  useEffect(() => {
    entries.current = recents.entries;
  });

  /** pin/add with a name, then the pin's state as the service has it; on failure the upload's state is put back. */
  const pinWithName = useCallback(
    async (cid: string, name: string, signal?: AbortSignal) => {
      const before = entries.current.find((entry) => entry.cid === cid)?.pinStatus ?? 'unpinned';
      setPinError(cid, null);
      setPinStatus(cid, 'pinning');
      try {
        await api.pins.add({ cid, name }, signal);
      } catch (error) {
        setPinStatus(cid, before);
        throw error;
      }
      // Usually pinned at once (every block is here); else `event: pin` says when.
      const pin = await api.pins.get(cid, signal).catch(() => null);
      if (pin) setPinStatus(cid, pin.status);
    },
    [api, setPinError, setPinStatus],
  );
  const pinAction = useAction((signal, cid: string, name: string) => pinWithName(cid, name, signal));

  const pinAfterUpload = useRef(pinUploads);
  useEffect(() => {
    pinAfterUpload.current = pinUploads;
  });
  const onUploaded = useCallback(
    (uploaded: Uploaded) => {
      const { afterCancel, ...upload } = uploaded;
      const entry: RecentUpload = { ...upload, uploadedAt: Math.floor(Date.now() / 1000), pinStatus: 'unpinned' };
      changeRecents((list) => addRecentUpload(list, { ...entry, pinStatus: list.find((known) => known.cid === entry.cid)?.pinStatus ?? 'unpinned' }));
      setFresh((current) => new Set(current).add(uploaded.cid));
      setAnnouncement(
        afterCancel ? `${uploaded.name} was stored before the cancel reached the service: ${uploaded.cid}` : `Uploaded ${uploaded.name}: ${uploaded.cid}`,
      );
      // Cancelled, though stored: it stays listed but unpinned (garbage collection takes it unless pinned).
      if (!pinAfterUpload.current || afterCancel) return;
      pinWithName(uploaded.cid, uploaded.name.slice(0, MAX_PIN_NAME)).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.isUnauthorized)) setPinError(uploaded.cid, `Not pinned: ${describeError(error)}`);
      });
    },
    [changeRecents, pinWithName, setPinError],
  );
  const uploads = useUploads({ layout, onUploaded });

  // Pin states change on the Pins page, from scripts, by garbage collection: the list follows.
  useEvent('pin', (payload) => {
    if (isRemovedEvent(payload)) setPinStatus(payload.cid, 'unpinned');
    else setPinStatus(payload.cid, payload.status);
  });
  // And when the page opens, the stored states are checked once against the service.
  const accountUuid = settings.data?.account_uuid ?? null;
  useEffect(() => {
    if (accountUuid === null) return;
    const controller = new AbortController();
    const queue = entries.current.map((entry) => entry.cid);
    const next = async (): Promise<void> => {
      for (let cid = queue.shift(); cid !== undefined; cid = queue.shift()) {
        try {
          setPinStatus(cid, (await api.pins.get(cid, controller.signal)).status);
        } catch (error) {
          if (error instanceof ApiError && error.error === 'not_found') setPinStatus(cid, 'unpinned');
        }
      }
    };
    void Promise.all(Array.from({ length: PIN_LOOKUPS_AT_ONCE }, next));
    return () => controller.abort();
  }, [accountUuid, api, setPinStatus]);

  const ready = settings.data !== undefined;
  const access = useGatewayAccess();
  const publicGateway = settings.data?.public_gateway === true;
  const addSources = (sources: UploadSource[]) => {
    setDropError(null);
    if (sources.length === 0) setDropError('Nothing to upload in what was dropped: drop files or folders from your computer.');
    uploads.add(sources);
  };
  const onDrop = (data: DataTransfer) => {
    sourcesFromDrop(data.items).then(addSources, (error: unknown) =>
      setDropError(`Nothing was uploaded: ${error instanceof DropReadError ? error.message : describeError(error)}`),
    );
  };

  return (
    <Page title="Files" description="Upload files and folders to get their CIDs, and pin what you want to keep.">
      <DropZone
        overlayLabel="Drop files or folders to upload them"
        onDrop={onDrop}
        disabled={!ready}
        hint={
          <>
            <strong>Drop files or folders anywhere on this page</strong>, or choose them. A file gets its own CID; a folder becomes one directory CID, built in
            this browser the way the service would build it.
          </>
        }
        actions={<UploadPickers onPick={addSources} disabled={!ready} />}
      />
      <Checkbox
        label="Pin each upload when it is done, named after its file or folder"
        hint="A pinned upload stays until you unpin it. One that is not pinned is deleted by a later garbage collection."
        checked={pinUploads}
        onChange={(event) => setPinUploads(event.target.checked)}
      />
      {settings.error ? <InlineError message={`Uploads are not available: ${settings.error}`} onRetry={settings.reload} /> : null}
      <InlineError message={dropError} />
      {uploads.queue.jobs.length > 0 ? <UploadsPanel uploads={uploads} /> : null}
      <RecentUploadsSection
        entries={recents.entries}
        fresh={fresh}
        pinErrors={pinErrors}
        openable={access !== 'unavailable' || publicGateway}
        openNote={openNote(access, publicGateway)}
        onPin={(upload) => {
          pinAction.clearError();
          setPinTarget(upload);
        }}
        onRemove={(upload) => changeRecents((list) => removeRecentUpload(list, upload.cid))}
      />
      <PinUploadDialog
        upload={pinTarget}
        busy={pinAction.pending}
        error={pinAction.error}
        onCancel={() => setPinTarget(null)}
        onPin={(name) => {
          if (!pinTarget) return;
          void pinAction.run(pinTarget.cid, name).then((result) => {
            if (result.ok) setPinTarget(null);
          });
        }}
      />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </Page>
  );
}

function openNote(access: ReturnType<typeof useGatewayAccess>, publicGateway: boolean): string {
  if (access !== 'unavailable') return 'Open shows an upload in a new tab, sent with this window’s key (never in the address).';
  if (publicGateway) return 'Open shows an upload in a new tab, from the service’s public gateway.';
  return 'Open is not offered: the gateway needs a key, which this browser can add to a link only when the window is at a localhost address. Copy the CID instead, or start the service with --public-gateway.';
}
