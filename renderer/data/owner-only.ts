import { ApiError } from '../api/api-error.js';

/** The service's answer to any account but the owner's for what is the owner's (sync, settings, the service's facts). */
export function isOwnerOnlyRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.error === 'permission';
}

/** A load of something only the owner may read: null for any other account, every other failure as it is. */
export function nullUnlessOwner<T>(load: Promise<T>): Promise<T | null> {
  return load.catch((error: unknown) => {
    if (isOwnerOnlyRefusal(error)) return null;
    throw error;
  });
}
