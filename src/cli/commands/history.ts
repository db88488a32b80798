/** `reserve-audit history` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const historyCommand: CliCommand = {
  command: 'history',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: history is not available yet\n');
    return 2;
  },
};
