import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench -- <name> [flags]`: runs test/bench/<name>.ts, whose `run(args)` prints its report and
 * ends with one `RESULT <name> ...` line. A new benchmark is a new file here; nothing else changes.
 */
interface Benchmark {
  run(args: readonly string[]): Promise<void>;
}

const here = fileURLToPath(new URL('.', import.meta.url));

function available(): string[] {
  return readdirSync(here)
    .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.endsWith('.d.ts'))
    .map((file) => file.slice(0, -3))
    .sort();
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const names = available();
  if (!name || !names.includes(name)) {
    process.stderr.write(`usage: npm run bench -- <name> [--duration S]\nbenchmarks: ${names.join(', ')}\n`);
    return 2;
  }
  const module = (await import(`./${name}.ts`)) as Partial<Benchmark>;
  if (typeof module.run !== 'function') throw new Error(`test/bench/${name}.ts exports no run(args)`);
  await module.run(rest);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
