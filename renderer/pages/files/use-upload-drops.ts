import { useCallback, useState } from 'react';
import { describeError } from '../../lib/messages.js';
import { DropReadError, sourcesFromDrop, type UploadSource } from './dropped-items.js';

export interface UploadDrops {
  /** Why the last drop uploaded nothing. */
  error: string | null;
  /** What the pickers chose, or a drop found, to upload. */
  add: (sources: UploadSource[]) => void;
  onDrop: (data: DataTransfer) => void;
}

/** Files and folders dropped on the page or picked, into the uploads; a drop with nothing to upload says so. */
export function useUploadDrops(upload: (sources: UploadSource[]) => void): UploadDrops {
  const [error, setError] = useState<string | null>(null);
  const add = useCallback(
    (sources: UploadSource[]) => {
      setError(null);
      if (sources.length === 0) setError('Nothing to upload in what was dropped: drop files or folders from your computer.');
      upload(sources);
    },
    [upload],
  );
  const onDrop = useCallback(
    (data: DataTransfer) => {
      sourcesFromDrop(data.items).then(add, (failure: unknown) =>
        setError(`Nothing was uploaded: ${failure instanceof DropReadError ? failure.message : describeError(failure)}`),
      );
    },
    [add],
  );
  return { error, add, onDrop };
}
