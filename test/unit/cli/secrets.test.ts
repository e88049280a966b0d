import { describe, expect, it } from 'vitest';
import { parseArgs, serveKeychainFlag, UsageError } from '../../../main/cli/args.js';
import { runCommand } from '../../../main/cli/run.js';

/** Through the dispatcher, which checks each command's flags against its declaration. */
const run = (...argv: string[]) => runCommand(argv);

describe('pinfold secrets: bad command lines are usage errors, before anything is touched', () => {
  it.each([
    [['secrets'], /unknown secrets command/],
    [['secrets', 'copy'], /unknown secrets command copy/],
    [['secrets', 'move'], /needs --to keychain or --to file/],
    [['secrets', 'move', '--to', 'cloud'], /needs --to keychain or --to file/],
    [['secrets', 'move', '--to', 'file', '--to', 'keychain'], /needs --to keychain or --to file/],
    [['secrets', 'move', '--to', 'file', 'extra'], /takes no arguments, got extra/],
    [['secrets', 'move', '--to', 'file', '--force', 'yes'], /does not take --force/],
    [['secrets', 'where', '--to', 'file'], /does not take --to/],
  ])('%j', async (argv, message) => {
    await expect(run(...argv)).rejects.toThrow(UsageError);
    await expect(run(...argv)).rejects.toThrow(message);
  });
});

describe('serve --keychain', () => {
  it('is a switch', () => {
    expect(serveKeychainFlag(parseArgs(['serve', '--keychain']))).toBe(true);
    expect(serveKeychainFlag(parseArgs(['serve']))).toBe(false);
    expect(serveKeychainFlag(parseArgs(['serve', '--keychain=false']))).toBe(false);
    expect(() => serveKeychainFlag(parseArgs(['serve', '--keychain', '--keychain']))).toThrow(/more than once/);
  });
});
