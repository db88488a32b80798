/**
 * The `reserve-audit` command line: yargs wiring only. Each command lives in
 * src/cli/commands/<name>.ts and is listed in commands/index.ts.
 */
import yargs from 'yargs';
import type { CliContext } from './command.js';
import { commands } from './commands/index.js';
import { reportError } from './exit-codes.js';

export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode = 0;
  let y = yargs([...argv])
    .scriptName('reserve-audit')
    .strict()
    .demandCommand(1, 'name a command (see --help)')
    .help()
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
  for (const c of commands) {
    y = y.command(c.command, c.describe, c.builder, async (args) => {
      exitCode = await c.run(args as Record<string, unknown>, ctx);
    });
  }
  try {
    await y.parseAsync();
  } catch (e) {
    if (e instanceof UsageError) {
      ctx.stderr.write(`reserve-audit: ${e.message}\n`);
      return 2;
    }
    return reportError(e, ctx.stderr);
  }
  return exitCode;
}

class UsageError extends Error {}

export async function main(argv: readonly string[]): Promise<void> {
  const code = await runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    cwd: process.cwd(),
    env: process.env,
  });
  process.exitCode = code;
}
