import { availableParallelism } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { aptInstall, planPreflight, probeMachine, TEST_PROJECTS, type TestProject } from './preflight.js';

/**
 * `npm test`: check the machine first (on Debian/Ubuntu as root, install what is missing), then
 * typecheck, build and run every test. `npm run test:integration` / `test:e2e` run one project the
 * same way: `scripts/test.ts <project> [vitest args...]`. On Linux the integration tests run inside
 * scripts/with-keyring.sh, a private D-Bus session with a fresh, unlocked gnome-keyring, so the
 * keychain tests have a Secret Service that never prompts and never touches the user's own keyring.
 */
interface Step {
  readonly command: string;
  readonly args: readonly string[];
  /** Runs the keychain tests, so it needs the private keyring session on Linux. */
  readonly keyring: boolean;
}

const vitest = (projects: readonly TestProject[], args: readonly string[] = []): Step => ({
  command: 'npx',
  args: ['vitest', 'run', ...projects.flatMap((project) => ['--project', project]), ...args],
  keyring: projects.includes('integration'),
});

const FULL_RUN: readonly Step[] = [
  { command: 'npm', args: ['run', 'typecheck'], keyring: false },
  // typescript-eslint's type-checked rules, the import-cycle rule and the formatter (eslint.config.js).
  { command: 'npm', args: ['run', 'lint'], keyring: false },
  { command: 'npm', args: ['run', 'build'], keyring: false },
  // Two files at once even on two cores (vitest's default there is one): the integration tests mostly wait
  // on child processes, sockets and fsync, so the run takes 10 minutes instead of 18.
  vitest(['unit', 'integration'], ['--maxWorkers', String(Math.max(2, availableParallelism() - 1))]),
  // The shared integration suite again, its metadata on PostgreSQL (vitest.config.ts lists the files); two
  // files at once for the same reason: each file has its own PostgreSQL and its own prefix in the one bucket.
  vitest(['integration-scale-out'], ['--maxWorkers', String(Math.max(2, availableParallelism() - 1))]),
  // e2e on its own, after the build step wrote the renderer it loads.
  vitest(['e2e']),
];

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function preflight(projects: readonly TestProject[]): boolean {
  const plan = planPreflight(probeMachine(), projects);
  if (plan.kind === 'ready') return true;
  if (plan.kind === 'stop') {
    process.stderr.write(`${plan.message}\n`);
    return false;
  }
  process.stderr.write(`tests: missing ${plan.missing}; installing ${plan.packages.join(' ')} with apt-get\n`);
  if (!aptInstall(plan.packages)) {
    process.stderr.write(`tests: apt-get could not install ${plan.packages.join(' ')}\n`);
    return false;
  }
  const after = planPreflight(probeMachine(), projects);
  if (after.kind === 'ready') return true;
  process.stderr.write(`${after.kind === 'stop' ? after.message : `tests: still missing ${after.missing} after apt-get`}\n`);
  return false;
}

/** Runs the steps in order and stops at the first that fails; its exit status is the answer. */
function run(steps: readonly Step[]): number {
  for (const step of steps) {
    const inKeyring = step.keyring && process.platform === 'linux';
    const command = inKeyring ? 'bash' : step.command;
    const args = inKeyring ? ['scripts/with-keyring.sh', step.command, ...step.args] : step.args;
    // Windows runs npm and npx as .cmd files, which only a shell starts.
    const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', shell: process.platform === 'win32' });
    if (result.error) throw result.error;
    if (result.status !== 0) return result.status ?? 1;
  }
  return 0;
}

function main(args: readonly string[]): number {
  const [first, ...rest] = args;
  if (first === undefined) return preflight(TEST_PROJECTS) ? run(FULL_RUN) : 1;
  const project = TEST_PROJECTS.find((name) => name === first);
  if (!project) {
    process.stderr.write(`usage: node --import tsx scripts/test.ts [${TEST_PROJECTS.join('|')} [vitest args...]]\n`);
    return 2;
  }
  return preflight([project]) ? run([vitest([project], rest)]) : 1;
}

process.exitCode = main(process.argv.slice(2));
