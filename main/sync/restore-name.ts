/**
 * Where a restored file goes when the folder already has different content under its name: beside it, as
 * `name (restored YYYY-MM-DD HHMM).ext`, the time being the restored version's, in the machine's local time.
 * Nothing local is ever overwritten silently (only an explicit overwrite replaces it). A followed folder's
 * incoming file beside a local change is named the same way, `name (from <source>, YYYY-MM-DD HHMM).ext`.
 */

/** Most file systems cap a name at 255 bytes (UTF-8 on Linux and macOS). */
const MAX_NAME_BYTES = 255;
const MAX_ATTEMPTS = 1000;

const encoder = new TextEncoder();

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * `YYYY-MM-DD HHMM` of a Unix time shifted by `offsetMinutes` east of UTC (the caller passes the local
 * offset: `-new Date(ms).getTimezoneOffset()`), so the name reads in the user's own time.
 */
export function restoreStamp(unixSeconds: number, offsetMinutes: number): string {
  const shifted = new Date(unixSeconds * 1000 + offsetMinutes * 60_000);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ${pad(shifted.getUTCHours())}${pad(shifted.getUTCMinutes())}`;
}

/** The name split before its extension: the last dot, unless the name starts with it or ends with it. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** Cuts `base` (by whole characters) until `base + rest` fits in MAX_NAME_BYTES. */
function fit(base: string, rest: string): string {
  const room = MAX_NAME_BYTES - encoder.encode(rest).byteLength;
  let cut = base;
  while (cut.length > 0 && encoder.encode(cut).byteLength > room) cut = Array.from(cut).slice(0, -1).join('');
  return cut + rest;
}

/**
 * The first free name beside `name` carrying `note`: `name (<note>).ext`, then `name (<note> 2).ext` and so
 * on while `taken` says the name is used. Long names are shortened before the suffix, never the suffix or
 * the extension.
 */
function firstFreeBeside(name: string, note: string, taken: (candidate: string) => boolean): string {
  const [base, extension] = splitExtension(name);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const suffix = attempt === 1 ? ` (${note})` : ` (${note} ${attempt})`;
    const candidate = fit(base, suffix + extension);
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free name beside ${JSON.stringify(name)} after ${MAX_ATTEMPTS} attempts`);
}

/** The first free name beside `name` for a restored copy made at `stamp`: `name (restored <stamp>).ext`. */
export function restoredName(name: string, stamp: string, taken: (candidate: string) => boolean): string {
  return firstFreeBeside(name, `restored ${stamp}`, taken);
}

/** Longest source label a name beside carries: a host or a name's short form fits, a long URL is cut. */
const MAX_SOURCE_LABEL = 40;

/**
 * A followed folder's source (a name's short form, a gateway's host) as a name can carry it on every
 * system: no separator, nothing Windows refuses (`:` of a port included), no parenthesis or comma (they
 * delimit the note), no control character; at most MAX_SOURCE_LABEL characters, never empty.
 */
export function besideSourceLabel(source: string): string {
  const clean = Array.from(source)
    .map((character) => (character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f || '\\/:*?"<>|(),'.includes(character) ? '-' : character))
    .slice(0, MAX_SOURCE_LABEL)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return clean === '' ? 'source' : clean;
}

/**
 * Where a followed folder's incoming file goes when a local change holds its name (issue 24): beside it, as
 * `name (from <source>, YYYY-MM-DD HHMM).ext`, then `name (from <source>, <stamp> 2).ext`... The source is
 * passed through {@link besideSourceLabel}.
 */
export function fromSourceName(name: string, source: string, stamp: string, taken: (candidate: string) => boolean): string {
  return firstFreeBeside(name, `from ${besideSourceLabel(source)}, ${stamp}`, taken);
}

const FROM_SOURCE_NOTE = / \(from [^()/]+, \d{4}-\d{2}-\d{2} \d{4}(?: \d+)?\)$/;

/**
 * Whether `candidate` is a name {@link fromSourceName} makes beside `name` (any source, any time): its base
 * is `name`'s (or the start of it, when it was shortened) and its extension the same.
 */
export function isFromSourceNameOf(candidate: string, name: string): boolean {
  const [base, extension] = splitExtension(name);
  if (!candidate.endsWith(extension)) return false;
  const withoutExtension = candidate.slice(0, candidate.length - extension.length);
  const note = FROM_SOURCE_NOTE.exec(withoutExtension);
  if (note === null) return false;
  const keptBase = withoutExtension.slice(0, note.index);
  return keptBase === base || (keptBase.length > 0 && base.startsWith(keptBase) && encoder.encode(candidate).byteLength > MAX_NAME_BYTES - 4);
}

/** Whether `name` is one {@link fromSourceName} made (beside any name). */
export function isFromSourceName(name: string): boolean {
  // A label may hold dots (a host), so the note may look like an extension: try the name whole too.
  return FROM_SOURCE_NOTE.test(name) || FROM_SOURCE_NOTE.test(splitExtension(name)[0]);
}
