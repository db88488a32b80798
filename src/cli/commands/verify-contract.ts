/** `reserve-audit verify-contract` — placeholder until its owner lands it (remove this comment then). */
import type { CliCommand } from '../command.js';

export const verifyContractCommand: CliCommand = {
  command: 'verify-contract',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async (_args, ctx) => {
    ctx.stderr.write('reserve-audit: verify-contract is not available yet\n');
    return 2;
  },
};
