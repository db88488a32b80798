/** `reserve-audit inspect-dar` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const inspectDarCommand: CliCommand = {
  command: 'inspect-dar',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: inspect-dar is not available yet\n');
    return 2;
  },
};
