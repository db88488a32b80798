/** GET /stats (docs/protocol/public-api.md "Statistics", api-decisions §5 swap performance). */
import { arrayField, objectField, type ParseOptions, type ShapeNode, ShapeReader } from './shape.js';

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

const SWAPS = {
  count_1h: 'integer',
  count_24h: 'integer',
  count_7d: 'integer',
  count_30d: 'integer',
  cc_volume_1h: 'decimal10',
  cc_volume_24h: 'decimal10',
  cc_volume_7d: 'decimal10',
  cc_volume_30d: 'decimal10',
} as const;

const SWAP_PERFORMANCE = {
  chart_data: arrayField((r, v, path) => r.fields(v, path, { seconds: 'integer', count: 'integer' })),
  avg_speed: 'number',
  consistency: 'number',
  fastest: 'number',
} as const;

const STATS = {
  swaps: objectField(SWAPS),
  swap_performance: objectField(SWAP_PERFORMANCE),
  chart_volume: arrayField((r, v, path) =>
    r.fields(v, path, { day_bucket: 'timestamp', cc_volume_total: 'decimal10' }),
  ),
  pool_tvl: (r: ShapeReader, node: ShapeNode, key: string): SwapStats['pool_tvl'] => {
    const tvl = r.child(node, key, ['tvl_cc', 'updated_at']);
    return {
      tvl_cc: r.decimal10(tvl, 'tvl_cc'),
      ...(r.has(tvl, 'updated_at') ? { updated_at: r.timestamp(tvl, 'updated_at') } : {}),
    };
  },
  active_traders: objectField({ count_90d: 'integer' }),
} as const;

/** Validates a /stats body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseStatsResponse(json: unknown, options: ParseOptions = {}): StatsResponse {
  return new ShapeReader(options).fields(json, '', { stats: objectField(STATS) });
}
