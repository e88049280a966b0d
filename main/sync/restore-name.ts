/**
 * Where a restored file goes when the folder already has different content under its name: beside it, as
 * `name (restored YYYY-MM-DD HHMM).ext`, the time being the restored version's, in the machine's local time.
 * Nothing local is ever overwritten silently (only an explicit overwrite replaces it).
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
 * The first free name beside `name` for a restored copy made at `stamp`: `name (restored <stamp>).ext`, then
 * `name (restored <stamp> 2).ext` and so on while `taken` says the name is used. Long names are shortened
 * before the suffix, never the suffix or the extension.
 */
export function restoredName(name: string, stamp: string, taken: (candidate: string) => boolean): string {
  const [base, extension] = splitExtension(name);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const suffix = attempt === 1 ? ` (restored ${stamp})` : ` (restored ${stamp} ${attempt})`;
    const candidate = fit(base, suffix + extension);
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free name beside ${JSON.stringify(name)} after ${MAX_ATTEMPTS} attempts`);
}
