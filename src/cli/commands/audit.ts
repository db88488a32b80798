/** `reserve-audit audit` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const auditCommand: CliCommand = {
  command: 'audit',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: audit is not available yet\n');
    return 2;
  },
};
