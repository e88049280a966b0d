import { useEffect, useRef, useState, type ReactNode } from 'react';
import { nextDragDepth, type DragSignal } from '../lib/drag-depth.js';
import { Icon, type IconName } from './icons.js';
import './drop-zone.css';

export interface DropZoneProps {
  /** What a drop does, shown big on the overlay: "Drop files to upload them". */
  overlayLabel: string;
  /** Receives the drop's DataTransfer (files, and folders through its items). */
  onDrop: (data: DataTransfer) => void;
  /** Whether a drag is one this page takes (default: it carries files). */
  accepts?: (types: readonly string[]) => boolean;
  disabled?: boolean;
  icon?: IconName;
  /**
   * The visible invitation in the page, with the keyboard alternative: "Drop files anywhere on this
   * page, or" + a "Choose files…" button. Without it only the overlay shows.
   */
  hint?: ReactNode;
  actions?: ReactNode;
}

const carriesFiles = (types: readonly string[]): boolean => types.includes('Files');

/**
 * The whole page is the drop target while this is mounted: a drag that carries files shows a visible
 * overlay, which stays steady while the pointer crosses child elements (a depth count, not the
 * flickering enter/leave pair). Drops that this page does not take are swallowed, so a file dropped
 * beside the target never navigates the window away from the app.
 */
export function DropZone({ overlayLabel, onDrop, accepts = carriesFiles, disabled = false, icon = 'upload', hint, actions }: DropZoneProps) {
  const [depth, setDepth] = useState(0);
  const handlers = useRef({ onDrop, accepts, disabled });
  useEffect(() => {
    handlers.current = { onDrop, accepts, disabled };
  });

  useEffect(() => {
    const signal = (next: DragSignal) => setDepth((current) => nextDragDepth(current, next));
    const wanted = (event: DragEvent): boolean => {
      const { accepts: takes, disabled: off } = handlers.current;
      return !off && event.dataTransfer !== null && takes([...event.dataTransfer.types]);
    };
    const enter = (event: DragEvent) => {
      if (!wanted(event)) return;
      event.preventDefault();
      signal('enter');
    };
    const over = (event: DragEvent) => {
      // Always: without it the browser opens a dropped file in place of the app.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = wanted(event) ? 'copy' : 'none';
    };
    const leave = (event: DragEvent) => {
      if (!wanted(event)) return;
      // Leaving the window itself (nothing entered instead): the drag is over whatever the count says.
      signal(event.relatedTarget === null ? 'end' : 'leave');
    };
    const drop = (event: DragEvent) => {
      event.preventDefault();
      signal('drop');
      if (wanted(event) && event.dataTransfer) handlers.current.onDrop(event.dataTransfer);
    };
    const end = () => signal('end');
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    window.addEventListener('dragend', end);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      window.removeEventListener('dragend', end);
    };
  }, []);

  return (
    <>
      {hint || actions ? (
        <div className="drop-hint">
          <Icon name={icon} size={20} className="drop-hint-icon" />
          <div className="drop-hint-text">{hint}</div>
          {actions ? <div className="row">{actions}</div> : null}
        </div>
      ) : null}
      {depth > 0 && !disabled ? (
        <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
          <div className="drop-overlay-panel">
            <Icon name={icon} size={40} />
            <p>{overlayLabel}</p>
          </div>
        </div>
      ) : null}
    </>
  );
}
