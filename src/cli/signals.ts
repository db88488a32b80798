/**
 * SIGINT (Ctrl-C) and SIGTERM (`kill`): one exit code per signal for every command (docs/cli.md
 * "Exit codes"). By default a signal ends the command at once, quietly — one line
 * `reserve-audit: interrupted (SIGINT)` on stderr, exit 130 for SIGINT, 143 for SIGTERM — after the
 * command's interrupt hooks (`onInterrupt`, e.g. the demo's temporary ledger) have run. A command
 * that stops gracefully (`serve`, `watch`) claims the signals while it runs (`claimStopSignals`) and
 * returns its own code instead. main() installs the process handlers (`installSignalHandlers`);
 * commands run in-process by tests never exit the process.
 */
import { exitCodeOfSignal, type StopSignal } from './exit-codes.js';

const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** the graceful stops claimed by running commands (the latest claim is told) */
const claims: ((signal: StopSignal) => void)[] = [];
/** synchronous clean-ups to run before a signal ends the process */
const hooks = new Set<() => void>();

/** Listens to SIGINT and SIGTERM on the process; the returned function stops listening. */
function listenStopSignals(onSignal: (signal: StopSignal) => void): () => void {
  const listeners = STOP_SIGNALS.map((s) => [s, () => onSignal(s)] as const);
  for (const [s, l] of listeners) process.on(s, l);
  return () => {
    for (const [s, l] of listeners) process.off(s, l);
  };
}

/**
 * While a command stops gracefully by itself (`serve`), a signal is handed to `onSignal` instead
 * of ending the process; the returned function gives the signals back. Works whether or not main()
 * installed its handlers (a claim listens to the process itself).
 */
export function claimStopSignals(onSignal: (signal: StopSignal) => void): () => void {
  const stopListening = listenStopSignals((s) => {
    if (claims[claims.length - 1] === onSignal) onSignal(s);
  });
  claims.push(onSignal);
  return () => {
    const i = claims.lastIndexOf(onSignal);
    if (i >= 0) claims.splice(i, 1);
    stopListening();
  };
}

/**
 * A synchronous clean-up (removing a temporary directory) to run when a signal ends the process
 * before the command's own `finally` could; the returned function removes it.
 */
export function onInterrupt(hook: () => void): () => void {
  hooks.add(hook);
  return () => {
    hooks.delete(hook);
  };
}

export interface SignalHandlerOptions {
  readonly stderr: NodeJS.WritableStream;
  /** how the process ends (process.exit; replaced in tests) */
  readonly exit?: (code: number) => void;
}

/**
 * Installs the default answer to SIGINT/SIGTERM (see the module comment); returns the function that
 * removes it. Called once by main(), first thing, so a signal never meets Node's default (death
 * by the signal, no exit code).
 */
export function installSignalHandlers(o: SignalHandlerOptions): () => void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  return listenStopSignals((s) => {
    if (claims.length > 0) return; // the claiming command stops by itself
    for (const hook of [...hooks]) {
      try {
        hook();
      } catch {
        // a clean-up that fails must not turn an interrupt into a crash
      }
    }
    hooks.clear();
    try {
      o.stderr.write(`reserve-audit: interrupted (${s})\n`);
    } catch {
      // a closed stderr: nothing to tell
    }
    exit(exitCodeOfSignal(s));
  });
}
