/** Every endpoint's error body, `{"error": "…"}` (docs/protocol/public-api.md "Errors", api-decisions §8). */
import { type ParseOptions, ShapeReader } from './shape.js';

export interface ErrorResponse {
  readonly error: string;
}

/** Validates an error body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseErrorResponse(json: unknown, options: ParseOptions = {}): ErrorResponse {
  const r = new ShapeReader({ ...options, maxStringLength: options.maxStringLength ?? 4096 });
  const root = r.object(json, '', ['error', 'message']);
  return { error: r.string(root, 'error') };
}
