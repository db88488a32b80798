/** `reserve-audit demo` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const demoCommand: CliCommand = {
  command: 'demo',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: demo is not available yet\n');
    return 2;
  },
};
