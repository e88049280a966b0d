import { createLogger } from '../base/logger.js';
import { checkFlags, commandSpecOf, parseArgs, serveConfig, serveKeychainFlag, UsageError, type ParsedArgs } from './args.js';
import { commandLines } from './command-specs.js';
import { accountCommand } from './account.js';
import { gcCommand } from './gc.js';
import { openCommand } from './open.js';
import { syncCommand } from './sync.js';
import { secretsCommand } from './secrets.js';
import { usageText } from './usage.js';
import { parentChannel } from '../service/parent-channel.js';
import { runService } from '../service/service-entry.js';

async function serve(args: ParsedArgs): Promise<void> {
  const config = serveConfig(args);
  await runService({
    config,
    preferKeychain: serveKeychainFlag(args),
    logger: createLogger(process.env.PINFOLD_LOG === 'debug' ? 'debug' : 'info'),
    env: process.env,
    print: (text) => void process.stdout.write(text),
    interactive: process.stdout.isTTY === true,
    channel: parentChannel(),
    exit: (code) => process.exit(code),
    onSignal: (signal, listener) => void process.on(signal, listener),
  });
}

/**
 * One `pinfold` command line: the help, or the declared command it names (command-specs.ts) with its flags
 * checked against that declaration before the command runs. Answers the exit code; -1 for `serve`, which
 * keeps the process running.
 */
export async function runCommand(argv: readonly string[], print: (text: string) => void = (text) => void process.stdout.write(text)): Promise<number> {
  const args = parseArgs(argv);
  const [command, ...rest] = args.positional;
  if (!command || args.flags.has('help')) {
    print(`${usageText()}\n`);
    // Asked for, the help is an answer; a bare `pinfold` is a command line without a command.
    return args.flags.has('help') ? 0 : 2;
  }
  const spec = commandSpecOf(args.positional);
  const words = args.positional.slice(0, (commandLines(spec)[0] as string[]).length);
  checkFlags(args, spec, words.join(' '));
  switch (command) {
    case 'serve':
      if (rest.length > 0) throw new UsageError(`serve takes no arguments, got ${rest.join(' ')}`);
      await serve(args);
      return -1;
    case 'account':
      return accountCommand({ ...args, positional: rest });
    case 'gc':
      return gcCommand({ ...args, positional: rest });
    case 'open':
      return openCommand({ ...args, positional: rest });
    case 'sync':
      return syncCommand({ ...args, positional: rest });
    case 'secrets':
      return secretsCommand({ ...args, positional: rest });
    default:
      throw new Error(`${spec.command} is declared but has no runner`);
  }
}
