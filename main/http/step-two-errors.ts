import { ConflictError, UnauthorizedError } from '../base/errors.js';

/** A step 2 refused at its commit point: cancelled, or its client gone, before it was stored (409). */
export class UploadCancelledError extends ConflictError {
  constructor(why: 'cancelled' | 'gone') {
    super(
      why === 'cancelled'
        ? 'the upload was cancelled before it was stored; nothing of it was kept'
        : 'the client went away before the upload was stored; nothing of it was kept',
    );
  }
}

/** A step 2 whose address was cancelled while it claimed it (or before): 401, as any address that cannot be used. */
export class UploadAddressCancelledError extends UnauthorizedError {
  constructor() {
    super('upload address was cancelled');
  }
}
