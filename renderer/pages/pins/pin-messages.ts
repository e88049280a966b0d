/**
 * The service names the parameter at fault ("Arg: bafk… uses multihash function 0x1e…"), which is right for
 * an API client and jargon in a form: in the Add pin dialog the parameter is the CID field.
 */
export function addPinMessage(message: string | null): string | null {
  if (message === null) return null;
  return message.replace(/^Arg: \S+ /, 'This CID ').replace(/^Arg /, 'The CID ');
}
