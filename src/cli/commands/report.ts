/** `reserve-audit report` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const reportCommand: CliCommand = {
  command: 'report',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: report is not available yet\n');
    return 2;
  },
};
