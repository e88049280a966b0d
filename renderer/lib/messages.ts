import { ApiError } from '../api/client.js';

/** One sentence for the user about a failed call; the service's own `msg` is kept, it names the fault. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'network' || error.kind === 'protocol') return error.msg;
    if (error.code === 401) return `The service did not accept this access key: ${error.msg}.`;
    if (error.code === 403) return `This access key may not read account usage (${error.msg}). Use a key with the admin permission.`;
    return `The service answered ${error.code}: ${error.msg}.`;
  }
  if (error instanceof Error) return `Something went wrong: ${error.message}`;
  return 'Something went wrong.';
}
