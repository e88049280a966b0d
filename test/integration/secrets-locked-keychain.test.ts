/**
 * A locked keychain (gnome-keyring with its collection locked, and no desktop session to show the
 * unlock prompt): every command says so clearly and writes nothing. It runs in a keyring of its own
 * (a nested scripts/with-keyring.sh), since locking the shared one would stall the other keychain tests.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/account-api.js';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('a locked keychain', () => {
  it('refuses serve and secrets move with a message that says the keychain is locked, and writes nothing; a new folder is not begun', () => {
    const run = spawnSync('bash', ['scripts/with-keyring.sh', process.execPath, '--import', 'tsx', 'test/helpers/locked-keychain-scenario.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      serve: Outcome;
      move: Outcome;
      unchanged: boolean;
      fresh: { serve: Outcome; secretsJson: boolean; masterKey: boolean };
    };
    for (const outcome of [result.serve, result.move]) {
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toMatch(
        /^pinfold: the master key lives in the OS keychain \(service "Pinfold", items "folder-[0-9a-f-]+\/…"\), which could not be read: /,
      );
      expect(outcome.stderr).toContain('the keychain is locked: unlock it');
      expect(outcome.stderr).toContain('Nothing was written');
    }
    expect(result.unchanged).toBe(true);
    expect(result.fresh.serve.code).toBe(1);
    expect(result.fresh.serve.stderr).toContain('the keychain is locked: unlock it');
    expect(result.fresh.secretsJson).toBe(false);
    expect(result.fresh.masterKey).toBe(false);
  });
});
