/**
 * The CLI commands, in help order (./catalog.ts), each loaded only when a command line names it:
 * `verify-contract` never loads the server, the mirror's database drivers or the HTTP client
 * (docs/decisions/install.md).
 */
import type { MountableCommand } from '../command.js';
import { COMMAND_CATALOG, type CommandName } from './catalog.js';

const LOADERS: Readonly<Record<CommandName, () => Promise<MountableCommand>>> = {
  decode: async () => (await import('./decode.js')).decodeCommand,
  'verify-contract': async () => (await import('./verify-contract.js')).verifyContractCommand,
  verifier: async () => (await import('./verifier.js')).verifierCommand,
  'inspect-dar': async () => (await import('./inspect-dar.js')).inspectDarCommand,
  types: async () => (await import('./types.js')).typesCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  'ledger-token': async () => (await import('./ledger-token.js')).ledgerTokenCommand,
  audit: async () => (await import('./audit.js')).auditCommand,
  snapshot: async () => (await import('./snapshot.js')).snapshotCommand,
  watch: async () => (await import('./watch.js')).watchCommand,
  replay: async () => (await import('./replay.js')).replayCommand,
  history: async () => (await import('./history.js')).historyCommand,
  mirror: async () => (await import('./mirror.js')).mirrorCommand,
  report: async () => (await import('./report.js')).reportCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
};

export interface CommandEntry {
  readonly name: CommandName;
  /** the yargs command string, e.g. 'decode <blob>' */
  readonly command: string;
  readonly describe: string;
  /** imports the command's module */
  readonly load: () => Promise<MountableCommand>;
}

export const commands: readonly CommandEntry[] = (Object.keys(COMMAND_CATALOG) as CommandName[]).map(
  (name) => ({ name, ...COMMAND_CATALOG[name], load: LOADERS[name] }),
);
