/**
 * GET /volume (docs/protocol/public-api.md "Volume window", "GET /volume"): swap volume over [start, end).
 */
import { objectField, type ParseOptions, ShapeReader } from './shape.js';

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

const VOLUME_WINDOW = {
  start_time: 'timestamp',
  end_time: 'timestamp',
  swap_count: 'integerString',
  volume_cc: 'decimal10',
  fees_cc: 'decimal10',
  lp_fees_cc: 'decimal10',
  protocol_fees_cc: 'decimal10',
} as const;

/** Validates a /volume body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseVolumeResponse(json: unknown, options: ParseOptions = {}): VolumeResponse {
  return new ShapeReader(options).fields(json, '', { data: objectField(VOLUME_WINDOW) });
}
