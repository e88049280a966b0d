import { BadInputError } from '../../base/errors.js';

const encoder = new TextEncoder();
// In a `u` regex a well-formed surrogate pair is one code point, so this matches lone surrogates only:
// the strings that have no UTF-8 form.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Checks one directory entry name: UTF-8, not empty, not `.` or `..`, no `/` and no NUL. `what`
 * names the parameter at fault in the message (e.g. `add[3] name`).
 */
export function validateEntryName(name: string, what: string): void {
  if (name === '') throw new BadInputError(`${what}: must not be empty`);
  if (name === '.' || name === '..') throw new BadInputError(`${what}: "${name}" is not allowed`);
  if (name.includes('/')) throw new BadInputError(`${what}: "${name}" must not contain "/"`);
  if (name.includes('\0')) throw new BadInputError(`${what}: must not contain NUL`);
  if (LONE_SURROGATE.test(name)) throw new BadInputError(`${what}: is not valid UTF-8`);
}

export function utf8(name: string): Uint8Array {
  return encoder.encode(name);
}

/** UnixFS (dag-pb) orders links by the bytes of their UTF-8 names, shorter prefix first. */
export function compareNameBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = (a[i] as number) - (b[i] as number);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}
