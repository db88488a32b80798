/** `reserve-audit replay` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const replayCommand: CliCommand = {
  command: 'replay',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: replay is not available yet\n');
    return 2;
  },
};
