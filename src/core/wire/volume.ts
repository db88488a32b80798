/**
 * GET /volume (docs/protocol/public-api.md "Volume window", "GET /volume"): swap volume over [start, end).
 */
import { type ParseOptions, ShapeReader } from './shape.js';

/** The sums of a window (built by src/core/amm/volume.ts). */
export interface VolumeTotals {
  /** integer string */
  readonly swap_count: string;
  readonly volume_cc: string;
  /** = lp_fees_cc + protocol_fees_cc */
  readonly fees_cc: string;
  readonly lp_fees_cc: string;
  readonly protocol_fees_cc: string;
}

/** The /volume `data` object: the window [start_time, end_time) and its sums. */
export interface VolumeWindow extends VolumeTotals {
  readonly start_time: string;
  readonly end_time: string;
}

export interface VolumeResponse {
  readonly data: VolumeWindow;
}

/** Validates a /volume body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseVolumeResponse(json: unknown, options: ParseOptions = {}): VolumeResponse {
  const r: ShapeReader = new ShapeReader(options);
  const d = r.envelope(json, 'data', [
    'start_time',
    'end_time',
    'swap_count',
    'volume_cc',
    'fees_cc',
    'lp_fees_cc',
    'protocol_fees_cc',
  ]);
  return {
    data: {
      start_time: r.timestamp(d, 'start_time'),
      end_time: r.timestamp(d, 'end_time'),
      swap_count: r.integerString(d, 'swap_count'),
      volume_cc: r.decimal10(d, 'volume_cc'),
      fees_cc: r.decimal10(d, 'fees_cc'),
      lp_fees_cc: r.decimal10(d, 'lp_fees_cc'),
      protocol_fees_cc: r.decimal10(d, 'protocol_fees_cc'),
    },
  };
}
