import { DataFolderLockedError } from '../base/lock-file.js';
import { UsageError } from './args.js';
import { runCommand } from './run.js';
import { usageText } from './usage.js';

runCommand(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`pinfold: ${error.message}\n\n${usageText()}\n`);
    else if (error instanceof DataFolderLockedError) process.stderr.write(`pinfold: ${error.message}\n`);
    else process.stderr.write(`pinfold: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
