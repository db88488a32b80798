/**
 * `reserve-audit history --mirror <file|postgres://…> --pool <id> [--format csv|json]`: one pool's recorded
 * time series — time, contract ID, reserves, price, TVL, LP-share value, verification status.
 */
import { AuditError } from '../../errors/audit.js';
import { loadPoolSeries, openMirrorForReading } from '../../run/history.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { mirrorOption, parseMirrorOption } from '../options.js';
import { formatHistoryCsv, formatHistoryJson } from '../render/history.js';
import { COMMAND_CATALOG } from './catalog.js';

export const historyCommand = defineCommand({
  ...COMMAND_CATALOG.history,
  builder: (y) =>
    y
      .option('mirror', mirrorOption)
      .option('pool', { type: 'string', demandOption: true, describe: 'pool id' })
      .option('format', {
        choices: ['csv', 'json'] as const,
        default: 'csv' as const,
        describe: 'output format',
      }),
  run: async (args, ctx) => {
    const pool = args.pool;
    const mirror = await openMirrorForReading(parseMirrorOption(args.mirror, ctx));
    try {
      const rows = (await loadPoolSeries(mirror, pool)).get(pool);
      if (rows === undefined)
        throw new AuditError(
          'MIRROR_UNAVAILABLE',
          `"--pool" expected a pool recorded in the mirror, got ${JSON.stringify(pool)}`,
        );
      ctx.stdout.write(args.format === 'json' ? formatHistoryJson(pool, rows) : formatHistoryCsv(rows));
      return EXIT_OK;
    } finally {
      await mirror.close();
    }
  },
});
