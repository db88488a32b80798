/**
 * The contract every CLI command module fulfils. A command parses its options (yargs), calls
 * core/io, renders to stdout (data) / stderr (progress, logs), and RETURNS its exit code;
 * main() sets process.exitCode. Commands take their streams from `CliContext` so tests can
 * run them in-process on temp dirs.
 */
import type { Argv } from 'yargs';

export interface CliContext {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface CliCommand {
  /** yargs command string, e.g. 'verify-contract' or 'decode <blob>' */
  readonly command: string;
  readonly describe: string;
  readonly builder: (y: Argv) => Argv;
  readonly run: (args: Record<string, unknown>, ctx: CliContext) => Promise<number>;
}
