import { useCallback, useEffect, useRef, useState } from 'react';
import { addRecentUpload, type RecentUpload } from '../../lib/recent-uploads.js';
import { MAX_PIN_NAME } from './pin-upload-dialog.js';
import type { RecentUploads } from './use-recent-uploads.js';
import type { Uploaded } from './use-uploads.js';

export interface FinishedUploads {
  /** Uploaded while this page was open, by CID: marked in the table. */
  fresh: ReadonlySet<string>;
  /** The last upload's CID in words, for screen readers. */
  announcement: string;
  onUploaded: (uploaded: Uploaded) => void;
}

export interface FinishedUploadsInit {
  change: RecentUploads['change'];
  /** Whether the page is set to pin each upload when it is done. */
  pinUploads: boolean;
  pinFinished: (cid: string, name: string) => void;
}

/**
 * What the Files page does with an upload that finished: it joins the recent uploads (at the top, marked
 * as new), its CID is announced, and it is pinned under its name when the page is set to, unless the user
 * had cancelled it (stored before the cancel arrived, it stays listed but unpinned: garbage collection
 * takes it unless pinned).
 */
export function useFinishedUploads({ change, pinUploads, pinFinished }: FinishedUploadsInit): FinishedUploads {
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const pinAfterUpload = useRef(pinUploads);
  useEffect(() => {
    pinAfterUpload.current = pinUploads;
  });

  const onUploaded = useCallback(
    (uploaded: Uploaded) => {
      const { afterCancel, ...upload } = uploaded;
      const entry: RecentUpload = { ...upload, uploadedAt: Math.floor(Date.now() / 1000), pinStatus: 'unpinned' };
      change((list) => addRecentUpload(list, { ...entry, pinStatus: list.find((known) => known.cid === entry.cid)?.pinStatus ?? 'unpinned' }));
      setFresh((current) => new Set(current).add(uploaded.cid));
      setAnnouncement(
        afterCancel ? `${uploaded.name} was stored before the cancel reached the service: ${uploaded.cid}` : `Uploaded ${uploaded.name}: ${uploaded.cid}`,
      );
      if (pinAfterUpload.current && !afterCancel) pinFinished(uploaded.cid, uploaded.name.slice(0, MAX_PIN_NAME));
    },
    [change, pinFinished],
  );
  return { fresh, announcement, onUploaded };
}
