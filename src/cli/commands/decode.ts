/** `reserve-audit decode` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const decodeCommand: CliCommand = {
  command: 'decode',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: decode is not available yet\n');
    return 2;
  },
};
