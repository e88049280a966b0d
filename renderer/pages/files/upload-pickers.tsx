import { useRef } from 'react';
import { Button } from '../../components/button.js';
import { sourcesFromInput, type UploadSource } from './dropped-items.js';

/**
 * "Choose files…" and "Choose folder…": the keyboard's way to what a drop does. Each opens the browser's
 * own picker through a hidden file input (a folder input has `webkitdirectory`, which React does not type).
 */
export function UploadPickers({ onPick, disabled }: { onPick: (sources: UploadSource[]) => void; disabled: boolean }) {
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const picked = (input: HTMLInputElement) => {
    const sources = sourcesFromInput(Array.from(input.files ?? []));
    // Emptied, so choosing the same file again is a change too.
    input.value = '';
    if (sources.length > 0) onPick(sources);
  };
  return (
    <>
      <Button variant="primary" icon="upload" disabled={disabled} onClick={() => files.current?.click()}>
        Choose files…
      </Button>
      <Button icon="folder" disabled={disabled} onClick={() => folder.current?.click()}>
        Choose folder…
      </Button>
      <input ref={files} type="file" multiple hidden data-testid="pick-files" onChange={(event) => picked(event.currentTarget)} />
      <input
        ref={(element) => {
          folder.current = element;
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        data-testid="pick-folder"
        onChange={(event) => picked(event.currentTarget)}
      />
    </>
  );
}
