/**
 * Names Windows cannot hold as they are (issue 22, item 6). A version made on Linux or macOS may hold
 * `a:b.txt`, `x\y` or `CON.txt`; written on Windows, `:` opens an alternate data stream of `a`, `\` is a
 * folder separator that climbs out of the restored tree, a device name opens the device instead of a
 * file, and a trailing dot or space is dropped (the file lands under another name). A restore on Windows
 * refuses such a version whole, before it writes anything. Pure, so every platform tests it.
 */

/** What Windows refuses (or reads otherwise) in a name, besides the control characters U+0000-U+001F. */
const FORBIDDEN = /[<>:"/\\|?*]/;

/**
 * Device names, with or without an extension (`NUL.txt`, `nul.tar.gz`), in any case, spaces before the
 * extension ignored as Windows ignores them; digits 0-9 and the superscripts ¹²³ that Windows also counts.
 */
const RESERVED = /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])$/i;

/** Why Windows cannot hold `name`, or undefined when it can. */
export function windowsNameProblem(name: string): string | undefined {
  const forbidden = FORBIDDEN.exec(name);
  if (forbidden !== null) return `holds "${forbidden[0]}", which Windows does not allow in a name`;
  const control = Array.from(name).find((character) => character.charCodeAt(0) < 0x20);
  if (control !== undefined) {
    return `holds the control character U+${control.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}, which Windows does not allow in a name`;
  }
  if (/[. ]$/.test(name)) return 'ends with a dot or a space, which Windows drops';
  const stem = (name.split('.')[0] ?? '').replace(/ +$/, '');
  if (RESERVED.test(stem)) return `is the reserved device name ${stem.toUpperCase()} on Windows`;
  return undefined;
}
