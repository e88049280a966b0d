import type { CID } from 'multiformats/cid';
import { encodePath } from './ipfs-path.js';

/** What the upload routes answer, as plain functions of what was stored. */

/** Where a DAG edit's result is: the new root and the path edited (for a removal, the removed entry's directory). */
export function editedLocation(root: CID, segments: readonly string[]): string {
  return `/ipfs/${root.toString()}/${encodePath(segments)}`.replace(/\/$/, '');
}

export interface CarImportAnswer {
  Roots: { Cid: { '/': string }; PinErrorMsg: string }[];
  Stats: { BlockCount: number; BlockBytesCount: number };
}

/** Kubo's `dag/import` answer: each root with its pin's error ('' when pinned or not asked to pin). */
export function carImportAnswer(roots: readonly CID[], pinErrors: ReadonlyMap<string, string>, blockCount: number, blockBytes: number): CarImportAnswer {
  return {
    Roots: roots.map((root) => ({ Cid: { '/': root.toString() }, PinErrorMsg: pinErrors.get(root.toString()) ?? '' })),
    Stats: { BlockCount: blockCount, BlockBytesCount: blockBytes },
  };
}
