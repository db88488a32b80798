/**
 * The `reserve-audit` command line: yargs wiring only. Each command lives in
 * src/cli/commands/<name>.ts and is listed in commands/index.ts; only the module of the command a
 * command line names is loaded (the others are registered by name and description, for `--help`
 * and the "unknown command" error), so a command starts without loading what it does not use. A command line that does not
 * parse is a `UsageError` (exit 2); an error thrown by a command is reported by exit-codes.ts
 * (2 for a typed error, 3 for a bug, with the stack under the global `--debug`). main() is the
 * process's side: a closed stdout/stderr is not an error (./closed-output.ts) and SIGINT/SIGTERM
 * end a command with 130/143 (./signals.ts).
 */
import yargs, { type Argv } from 'yargs';
import { UsageError } from '../errors/usage.js';
import { readPackageVersion } from '../io/files/package-root.js';
import { ignoreClosedOutput } from './closed-output.js';
import type { CliContext } from './command.js';
import { commands } from './commands/index.js';
import { EXIT_OK, type ExitCode, reportError } from './exit-codes.js';
import { installSignalHandlers } from './signals.js';

/**
 * `--every -1s` → `--every=-1s`: a token that starts with `-` and a digit is a value, never an
 * option (no option is a digit), so the option's own rule can reject it with its message instead of
 * yargs reading it as the short flags `-1 -s` ("Unknown arguments: 1, s").
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of argv) {
    const prev = out[out.length - 1];
    if (/^-\d/.test(a) && prev !== undefined && /^--[a-z][a-z0-9-]*$/.test(prev))
      out[out.length - 1] = `${prev}=${a}`;
    else out.push(a);
  }
  return out;
}

/** The command a command line names: its first word that is not an option (no global option takes a value). */
function namedCommand(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

export async function runCli(argv: readonly string[], ctx: CliContext): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT_OK;
  // known before parsing, so a failure while parsing can print its stack too
  let debug = argv.includes('--debug');
  let y: Argv = yargs(joinNegativeValues(argv))
    .scriptName('reserve-audit')
    .strict()
    .demandCommand(1, 'name a command (see --help)')
    .option('debug', {
      type: 'boolean',
      default: false,
      global: true,
      describe: 'on an internal error, print its stack',
    })
    .middleware((args) => {
      debug = args.debug;
    })
    .help()
    .version(readPackageVersion())
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .exitProcess(false)
    .fail((msg, err) => {
      // yargs' own errors (YError: a failed coercion, bad arity) are usage errors too
      if (err === undefined || err === null || err.name === 'YError')
        throw new UsageError('USAGE_INVALID', msg ?? err?.message ?? 'invalid command line');
      throw err;
    });
  try {
    const named = namedCommand(argv);
    for (const c of commands) {
      if (c.name === named) {
        y = (await c.load()).mount(y, ctx, (code) => {
          exitCode = code;
        });
      } else y = y.command(c.command, c.describe);
    }
    await y.parseAsync();
  } catch (e) {
    return reportError(e, ctx.stderr, { debug });
  }
  return exitCode;
}

export async function main(argv: readonly string[]): Promise<void> {
  // before anything is written or awaited: a reader that goes away (`| head`) or a signal never
  // meets Node's defaults (a stack and exit 1; death by the signal without an exit code)
  ignoreClosedOutput(process.stdout);
  ignoreClosedOutput(process.stderr);
  installSignalHandlers({ stderr: process.stderr });
  const code = await runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    cwd: process.cwd(),
    env: process.env,
  });
  process.exitCode = code;
}
