import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow, type ValidationError } from '@action-validator/core';

/**
 * Part of `npm run lint`: every GitHub Actions workflow under .github/workflows checked against the
 * workflow schema by action-validator (its WebAssembly core, so no binary to fetch), since the
 * release pipeline cannot run here and a typo in it would only show on the next release.
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const WORKFLOWS_DIR = join(repoRoot, '.github', 'workflows');

/** One line per problem, `file: path: message`; none for a valid workflow. */
export function workflowProblems(file: string, text: string): string[] {
  const flatten = (error: ValidationError, into: string[]): string[] => {
    const where = 'location' in error && error.location ? `line ${error.location.line}` : 'path' in error ? error.path : '';
    const nested = 'states' in error ? (error.states ?? []).flatMap((state) => state.errors) : [];
    if (nested.length === 0) into.push(`${file}: ${where}: ${error.detail ?? error.title}`);
    for (const inner of nested) flatten(inner, into);
    return into;
  };
  return validateWorkflow(text).errors.flatMap((error) => flatten(error, []));
}

export async function workflowFiles(dir: string = WORKFLOWS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((name) => /\.ya?ml$/.test(name)).map((name) => join(dir, name));
}

async function main(): Promise<number> {
  const files = await workflowFiles();
  if (files.length === 0) {
    process.stderr.write(`no workflows under ${WORKFLOWS_DIR}\n`);
    return 1;
  }
  const problems = (await Promise.all(files.map(async (file) => workflowProblems(file, await readFile(file, 'utf8'))))).flat();
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
