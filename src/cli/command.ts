/**
 * The contract every CLI command module fulfils: parse (a yargs builder, whose inferred type is
 * the type of the arguments `run` receives) → call core/io/run → render to stdout (data) and
 * stderr (progress, logs) → RETURN its exit code, taken from exit-codes.ts; main() sets
 * process.exitCode. Commands take their streams from `CliContext` so tests can run them
 * in-process on temp dirs. A command throws a `ReserveAuditError` when it could not check (2);
 * anything else it throws is a bug (3); main() reports both. SIGINT/SIGTERM end a command with
 * 130/143 (./signals.ts), unless it declares `stopsGracefully` (serve): it then receives the first
 * signal as `stop` and returns its own code.
 */
import type { Argv } from 'yargs';
import type { ExitCode, StopSignal } from './exit-codes.js';
import { claimStopSignals } from './signals.js';

export interface CliContext {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface CommandSpec<A> {
  /** yargs command string, e.g. 'verify-contract' or 'decode <blob>' */
  readonly command: string;
  readonly describe: string;
  /** declares the options; its return type is the type of `run`'s arguments */
  readonly builder: (y: Argv) => Argv<A>;
  /**
   * the command stops by itself on SIGINT/SIGTERM: from the start of `run` to its end a signal
   * settles `stop` instead of ending the process (without it, `stop` never settles)
   */
  readonly stopsGracefully?: boolean;
  readonly run: (args: A, ctx: CliContext, stop: Promise<StopSignal>) => Promise<ExitCode>;
}

/** A command whose argument type is hidden: what the command list and main() need. */
export interface MountableCommand {
  readonly command: string;
  /** registers the command on a yargs instance; `done` receives the exit code of its run */
  readonly mount: (y: Argv, ctx: CliContext, done: (code: ExitCode) => void) => Argv;
}

export interface CliCommand<A> extends CommandSpec<A>, MountableCommand {}

/** Declares a command; `run` receives the arguments typed from `builder`. */
export function defineCommand<A>(spec: CommandSpec<A>): CliCommand<A> {
  return {
    ...spec,
    mount: (y, ctx, done) =>
      y.command(spec.command, spec.describe, spec.builder, async (args) => {
        let settle: (signal: StopSignal) => void = () => {};
        const stop = new Promise<StopSignal>((resolve) => {
          settle = resolve; // the first signal settles it; later ones change nothing
        });
        const release = spec.stopsGracefully === true ? claimStopSignals(settle) : () => {};
        try {
          // yargs hands over ArgumentsCamelCase<A>: A plus camel-case aliases and `_`/`$0`, which
          // TypeScript cannot relate to a generic A — the one place the argument type is asserted
          done(await spec.run(args as A, ctx, stop));
        } finally {
          release();
        }
      }),
  };
}
