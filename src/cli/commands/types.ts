/** `reserve-audit types` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const typesCommand: CliCommand = {
  command: 'types',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: types is not available yet\n');
    return 2;
  },
};
