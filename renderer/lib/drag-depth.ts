/**
 * Whether a drag is over the page. Every child element the pointer crosses fires its own dragenter and
 * dragleave, so a plain "enter shows, leave hides" flickers; counting the nesting depth does not. A drop
 * or a drag that ends elsewhere (Escape, leaving the window) resets it.
 */
export type DragSignal = 'enter' | 'leave' | 'drop' | 'end';

export function nextDragDepth(depth: number, signal: DragSignal): number {
  switch (signal) {
    case 'enter':
      return depth + 1;
    case 'leave':
      return Math.max(0, depth - 1);
    default:
      return 0;
  }
}
