/** Command-line flags of the benchmarks: `--name value` or `--name=value`. */

const MiB = 1024 * 1024;

/** The text of `--name`, or undefined when absent. */
export function textFlag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] : args[i + 1];
}

/** `--name N`, a positive number; `fallback` when absent. */
export function numberFlag(args: readonly string[], name: string, fallback: number): number {
  const text = textFlag(args, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** `--size 1G`, `64M`, `4096K` or plain bytes. */
export function sizeFlag(args: readonly string[], fallback: number): number {
  const text = textFlag(args, 'size');
  if (text === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)([KMG]?)i?B?$/i.exec(text);
  if (!match) throw new Error('--size must be bytes or a number with K, M or G');
  const unit = { '': 1, K: 1024, M: MiB, G: 1024 * MiB }[(match[2] as string).toUpperCase()] as number;
  return Math.round(Number(match[1]) * unit);
}
