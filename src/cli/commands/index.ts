/** The list of CLI commands, in help order. */
import type { MountableCommand } from '../command.js';
import { auditCommand } from './audit.js';
import { decodeCommand } from './decode.js';
import { demoCommand } from './demo.js';
import { historyCommand } from './history.js';
import { inspectDarCommand } from './inspect-dar.js';
import { ledgerTokenCommand } from './ledger-token.js';
import { mirrorCommand } from './mirror.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { serveCommand } from './serve.js';
import { snapshotCommand } from './snapshot.js';
import { typesCommand } from './types.js';
import { verifierCommand } from './verifier.js';
import { verifyContractCommand } from './verify-contract.js';

export const commands: readonly MountableCommand[] = [
  decodeCommand,
  verifyContractCommand,
  verifierCommand,
  inspectDarCommand,
  typesCommand,
  serveCommand,
  ledgerTokenCommand,
  auditCommand,
  snapshotCommand,
  replayCommand,
  historyCommand,
  mirrorCommand,
  reportCommand,
  demoCommand,
];
