/** `reserve-audit snapshot` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const snapshotCommand: CliCommand = {
  command: 'snapshot',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: snapshot is not available yet\n');
    return 2;
  },
};
