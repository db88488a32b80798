/** `reserve-audit serve` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const serveCommand: CliCommand = {
  command: 'serve',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: serve is not available yet\n');
    return 2;
  },
};
