/**
 * GET /volume (docs/protocol/public-api.md "GET /volume", api-decisions §8): swap count, CC volume and fees
 * over the half-open window [start_time, end_time). Defaults: end = now, start = end − 24 h. Max 32 days.
 * Timestamps: ISO 8601 with `Z` or `±hh:mm` and optional fractional seconds (see core/wire/timestamp.ts);
 * responses in `+00:00`. Caching: a closed window (end ≤ now) is immutable → 1 hour; the default
 * rolling window and windows reaching into the future → 30 seconds. The totals come from the
 * swap-event index's prefix sums: O(log n) per window, whatever its length or the history's.
 */
import { computeVolumeWindowFromLog, DAY_MS } from '../../core/amm/index.js';
import { formatApiTimestamp, parseQueryTimestamp } from '../../core/wire/timestamp.js';
import type { VolumeResponse } from '../../core/wire/volume.js';
import { RequestRejectedError } from '../../errors/server.js';
import type { RequestContext, RouteDeps } from '../deps.js';
import type { Reply } from '../http.js';
import { CACHE_SECONDS, cachedJson, singleParam } from './common.js';

const MAX_VOLUME_WINDOW_MS = 32 * DAY_MS;

function readTime(ctx: RequestContext, name: string): number | undefined {
  const given = singleParam(ctx.query, name);
  if (given === undefined) return undefined;
  // an unencoded '+' in a query string arrives as a space: "…T00:00:00 02:00" means +02:00
  const raw = / \d{2}:\d{2}$/.test(given) ? `${given.slice(0, -6)}+${given.slice(-5)}` : given;
  const parsed = parseQueryTimestamp(raw);
  if (!parsed.ok) {
    const shown = raw.length > 60 ? `${raw.slice(0, 60)}…` : raw;
    throw new RequestRejectedError(
      'REQUEST_INVALID',
      `invalid ${name}: ${parsed.reason}, got ${JSON.stringify(shown)}`,
    );
  }
  return parsed.ms;
}

function body(deps: RouteDeps, startMs: number, endMs: number): VolumeResponse {
  return {
    data: {
      start_time: formatApiTimestamp(startMs),
      end_time: formatApiTimestamp(endMs),
      ...computeVolumeWindowFromLog(deps.exchange.swapEventLog(), startMs, endMs),
    },
  };
}

export function volume(deps: RouteDeps, ctx: RequestContext): Reply {
  const start = readTime(ctx, 'start_time');
  const end = readTime(ctx, 'end_time');
  const now = deps.clock.nowMs();
  if (start === undefined && end === undefined) {
    // the rolling default window: one body per 30-second window, computed at its first request
    return cachedJson(deps, 'volume-default', CACHE_SECONDS.volumeOpen, () => {
      const t = deps.clock.nowMs();
      return body(deps, t - DAY_MS, t);
    });
  }
  const endMs = end ?? now;
  const startMs = start ?? endMs - DAY_MS;
  if (startMs >= endMs)
    throw new RequestRejectedError('REQUEST_INVALID', 'start_time must be before end_time');
  if (endMs - startMs > MAX_VOLUME_WINDOW_MS) {
    throw new RequestRejectedError(
      'REQUEST_INVALID',
      'window exceeds the maximum of 32 days; fetch longer ranges in chunks',
    );
  }
  const closed = endMs <= now;
  const seconds = closed ? CACHE_SECONDS.volumeClosed : CACHE_SECONDS.volumeOpen;
  return cachedJson(deps, `volume|${startMs}|${endMs}`, seconds, () => body(deps, startMs, endMs));
}
