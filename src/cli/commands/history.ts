/**
 * `reserve-audit history --mirror <file> --pool <id> [--format csv|json]`: one pool's recorded
 * time series — time, contract ID, reserves, price, TVL, LP-share value, verification status.
 */
import { resolve } from 'node:path';
import { AuditError } from '../../errors/audit.js';
import { loadPoolSeries, openMirrorForReading } from '../../run/history.js';
import type { CliCommand } from '../command.js';
import { formatHistoryCsv, formatHistoryJson } from '../render/history.js';

export const historyCommand: CliCommand = {
  command: 'history',
  describe: "print one pool's recorded history from a mirror (CSV or JSON)",
  builder: (y) =>
    y
      .option('mirror', { type: 'string', demandOption: true, describe: 'the SQLite mirror' })
      .option('pool', { type: 'string', demandOption: true, describe: 'pool id' })
      .option('format', {
        choices: ['csv', 'json'] as const,
        default: 'csv' as const,
        describe: 'output format',
      }),
  run: async (args, ctx) => {
    const pool = String(args.pool);
    const mirror = openMirrorForReading(resolve(ctx.cwd, String(args.mirror)));
    try {
      const rows = loadPoolSeries(mirror, pool).get(pool);
      if (rows === undefined)
        throw new AuditError(
          'MIRROR_UNAVAILABLE',
          `"--pool" expected a pool recorded in the mirror, got ${JSON.stringify(pool)}`,
        );
      ctx.stdout.write(args.format === 'json' ? formatHistoryJson(pool, rows) : formatHistoryCsv(rows));
      return 0;
    } finally {
      mirror.close();
    }
  },
};
