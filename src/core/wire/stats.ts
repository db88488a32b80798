/** GET /stats (docs/protocol/public-api.md "Statistics", api-decisions §5 swap performance). */
import { type ParseOptions, ShapeReader } from './shape.js';

/** The /stats object (built by src/core/amm/stats.ts). */
export interface SwapStats {
  readonly swaps: {
    readonly count_1h: number;
    readonly count_24h: number;
    readonly count_7d: number;
    readonly count_30d: number;
    readonly cc_volume_1h: string;
    readonly cc_volume_24h: string;
    readonly cc_volume_7d: string;
    readonly cc_volume_30d: string;
  };
  readonly swap_performance: {
    readonly chart_data: readonly { readonly seconds: number; readonly count: number }[];
    /** mean execution seconds, 2 decimals; 0 without swaps */
    readonly avg_speed: number;
    /** fraction of swaps within the estimated time, 4 decimals; 0 without swaps */
    readonly consistency: number;
    /** smallest execution seconds; 0 without swaps */
    readonly fastest: number;
  };
  /** one bucket per day of the last 30 days (day_bucket with whole seconds, `+00:00`) */
  readonly chart_volume: readonly { readonly day_bucket: string; readonly cc_volume_total: string }[];
  /**
   * `updated_at` (an extension the spec allows: extra fields are ignored by clients): the pool
   * snapshot — the `updated_at` of /pools/proof — the total was computed from; absent when the
   * exchange does not say (docs/findings.md "Soundness", `stats.tvl`)
   */
  readonly pool_tvl: { readonly tvl_cc: string; readonly updated_at?: string };
  readonly active_traders: { readonly count_90d: number };
}

export interface StatsResponse {
  readonly stats: SwapStats;
}

const SWAP_KEYS = [
  'count_1h',
  'count_24h',
  'count_7d',
  'count_30d',
  'cc_volume_1h',
  'cc_volume_24h',
  'cc_volume_7d',
  'cc_volume_30d',
];

/** Validates a /stats body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseStatsResponse(json: unknown, options: ParseOptions = {}): StatsResponse {
  const r: ShapeReader = new ShapeReader(options);
  const s = r.envelope(json, 'stats', [
    'swaps',
    'swap_performance',
    'chart_volume',
    'pool_tvl',
    'active_traders',
  ]);
  const sw = r.child(s, 'swaps', SWAP_KEYS);
  const perf = r.child(s, 'swap_performance', ['chart_data', 'avg_speed', 'consistency', 'fastest']);
  const tvl = r.child(s, 'pool_tvl', ['tvl_cc', 'updated_at']);
  const traders = r.child(s, 'active_traders', ['count_90d']);
  return {
    stats: {
      swaps: {
        count_1h: r.integer(sw, 'count_1h'),
        count_24h: r.integer(sw, 'count_24h'),
        count_7d: r.integer(sw, 'count_7d'),
        count_30d: r.integer(sw, 'count_30d'),
        cc_volume_1h: r.decimal10(sw, 'cc_volume_1h'),
        cc_volume_24h: r.decimal10(sw, 'cc_volume_24h'),
        cc_volume_7d: r.decimal10(sw, 'cc_volume_7d'),
        cc_volume_30d: r.decimal10(sw, 'cc_volume_30d'),
      },
      swap_performance: {
        chart_data: r.array(perf, 'chart_data', (v, path) => {
          const c = r.object(v, path, ['seconds', 'count']);
          return { seconds: r.integer(c, 'seconds'), count: r.integer(c, 'count') };
        }),
        avg_speed: r.number(perf, 'avg_speed'),
        consistency: r.number(perf, 'consistency'),
        fastest: r.number(perf, 'fastest'),
      },
      chart_volume: r.array(s, 'chart_volume', (v, path) => {
        const c = r.object(v, path, ['day_bucket', 'cc_volume_total']);
        return {
          day_bucket: r.timestamp(c, 'day_bucket'),
          cc_volume_total: r.decimal10(c, 'cc_volume_total'),
        };
      }),
      pool_tvl: {
        tvl_cc: r.decimal10(tvl, 'tvl_cc'),
        ...(r.has(tvl, 'updated_at') ? { updated_at: r.timestamp(tvl, 'updated_at') } : {}),
      },
      active_traders: { count_90d: r.integer(traders, 'count_90d') },
    },
  };
}
