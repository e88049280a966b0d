import { lstat } from 'node:fs/promises';
import { ErrorCodes } from '../../../shared/error-codes.js';
import { AppError } from '../../base/errors.js';

/**
 * Why a followed folder could not be written (issue 24: "disk full, a folder gone or unwritable: the folder
 * shows why and retries"). The runner shows the message and tries again later; nothing half-written is left
 * under a real name whatever the reason (follow-applier.ts). A 409 where it reaches the API (a discard): the
 * folder's state, not the request, is at fault.
 */
export type FollowApplyProblem =
  /** ENOSPC / EDQUOT: no room left on the folder's disk (or the user's quota). */
  | 'disk-full'
  /** The folder (or its drive) is not there, or is no longer a folder. */
  | 'folder-gone'
  /** EACCES / EPERM / EROFS: the folder or a file in it cannot be written. */
  | 'unwritable'
  /** A discard would have to delete local changes, and this machine has no trash to move them to. */
  | 'no-trash'
  /** The version holds a name this machine cannot write (`..`, a NUL, a name Windows refuses). */
  | 'bad-version';

export class FollowApplyError extends AppError {
  override readonly name = 'FollowApplyError';
  constructor(
    readonly problem: FollowApplyProblem,
    message: string,
  ) {
    super(ErrorCodes.conflict, message);
  }
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Throws FollowApplyError('folder-gone') unless `folder` is a folder (not a link to one: nothing is written through a link). */
export async function requireFolder(folder: string): Promise<void> {
  const found = await lstat(folder).catch((error: unknown) => {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return null;
    throw explainFsError(error, folder);
  });
  if (found === null) throw new FollowApplyError('folder-gone', `the folder ${folder} is gone (deleted, moved or its drive unmounted)`);
  if (found.isSymbolicLink())
    throw new FollowApplyError('folder-gone', `the folder ${folder} is now a symbolic link; a followed folder is written through no link`);
  if (!found.isDirectory()) throw new FollowApplyError('folder-gone', `the folder ${folder} is no longer a folder`);
}

/**
 * A file system error met while writing the folder, as the FollowApplyError that says why, or the error
 * itself when it is not one of the reasons above (a bug, a block missing: the caller's to report).
 */
export function explainFsError(error: unknown, folder: string): unknown {
  if (error instanceof FollowApplyError) return error;
  const code = errnoOf(error);
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new FollowApplyError('disk-full', `the disk of ${folder} is full (${code}); nothing was left half-written, the update waits for room`);
    case 'EACCES':
    case 'EPERM':
      return new FollowApplyError('unwritable', `the folder ${folder} cannot be written: permission denied (${code})`);
    case 'EROFS':
      return new FollowApplyError('unwritable', `the folder ${folder} is on a read-only file system (EROFS)`);
    default:
      return error;
  }
}

/**
 * The error to throw for a failure while writing `folder`: a vanished folder says so (an unmounted drive
 * fails with ENOENT or EIO on the way), else {@link explainFsError}.
 */
export async function folderWriteError(error: unknown, folder: string): Promise<unknown> {
  if (error instanceof FollowApplyError) return error;
  const code = errnoOf(error);
  if (code === 'ENOENT' || code === 'EIO' || code === 'ENOTDIR' || code === 'ENODEV') {
    const gone = await requireFolder(folder).then(
      () => undefined,
      (problem: unknown) => problem,
    );
    if (gone !== undefined) return gone;
  }
  return explainFsError(error, folder);
}
