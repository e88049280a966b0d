import { ErrorCodes } from '../../../shared/error-codes.js';
import { AppError } from '../../base/errors.js';

/**
 * A path that ends inside one dag-cbor/dag-json node (on a value that is not a link). The path gateway spec
 * answers 501 for it; outside the gateway it is plain bad input, hence the code.
 */
export class PathInsideNodeError extends AppError {
  override readonly name = 'PathInsideNodeError';
  constructor(message: string) {
    super(ErrorCodes.badInput, message);
  }
}
