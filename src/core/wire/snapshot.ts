/**
 * `ApiSnapshot`: everything one audit fetches from an exchange's public API, parsed and
 * validated, plus the raw bytes of every response for the mirror (docs/protocol/public-api.md
 * "Endpoints"; the fetch order is proofs → state → proofs so the audit can bracket /pools/state
 * between two proof sets). Produced by src/io/http/fetch-snapshot.ts, consumed by src/core/audit
 * and recorded by src/io/store.
 */
import type {
  AggregatorOrderbookResponse,
  AggregatorPairsResponse,
  AggregatorPath,
  AggregatorTickersResponse,
} from './aggregator.js';
import type { ExchangeInfoResponse } from './exchange-info.js';
import type { MarketsInfoResponse } from './markets-info.js';
import type { PoolsInfoPerPool } from './pools-info.js';
import type { PoolsProofPerPool } from './pools-proof.js';
import type { PoolsStatePerPool } from './pools-state.js';
import type { ConnectQuoteResponse, QuoteRequest } from './quote.js';
import type { StatsResponse } from './stats.js';
import type { SwapInfoResponse } from './swap-info.js';
import type { TokensInfoResponse } from './tokens-info.js';
import type { VolumeResponse } from './volume.js';

/** One HTTP exchange as received, kept verbatim for the mirror (content-addressed by sha256). */
export interface RawResponse {
  readonly method: 'GET' | 'POST';
  /** absolute URL, credentials stripped */
  readonly url: string;
  /** the JSON request body of a POST, else null */
  readonly requestBody: string | null;
  readonly status: number;
  readonly contentType: string | null;
  /** lower-case hex sha256 of `body` (the decoded body: after gzip/deflate) */
  readonly sha256: string;
  readonly body: Uint8Array;
  /** ms since the epoch when the request was sent */
  readonly startedAtMs: number;
  readonly durationMs: number;
  /** `Cache-Control` max-age in seconds (null: absent, no-store or unparsable); additive, may be absent */
  readonly maxAgeSeconds?: number | null;
  /** the `Age` header in seconds (null: absent or unparsable) */
  readonly ageSeconds?: number | null;
  /** the `Date` header as sent (null: absent) */
  readonly date?: string | null;
}

/**
 * The cache headers of a response (RFC 9111 §5.1 Age, §5.2.2.1 max-age): `max-age=N` of a
 * Cache-Control value (null when absent or `no-store`), and a non-negative integer Age.
 */
export function parseCacheHeaders(
  cacheControl: string | null,
  age: string | null,
): { readonly maxAgeSeconds: number | null; readonly ageSeconds: number | null } {
  let maxAgeSeconds: number | null = null;
  if (cacheControl !== null && !/(^|,)\s*no-store\s*(,|$)/i.test(cacheControl)) {
    const m = /(?:^|,)\s*max-age\s*=\s*"?([0-9]{1,9})"?\s*(?:,|$)/i.exec(cacheControl);
    if (m?.[1] !== undefined) maxAgeSeconds = Number(m[1]);
  }
  const a = age?.trim() ?? '';
  const ageSeconds = /^[0-9]{1,9}$/.test(a) ? Number(a) : null;
  return { maxAgeSeconds, ageSeconds };
}

/**
 * One section of a snapshot: the parsed value, or why it could not be obtained (HTTP error,
 * non-200 status, shape error). Structurally compatible with src/core/audit `Fetched<T>`.
 * A failed section makes the checks that need it could-not-check; the rest of the audit runs.
 */
export type ApiResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string; readonly code: string };

/** A /volume response with the window that was requested (null = parameter omitted). */
export interface VolumeSample {
  readonly startTime: string | null;
  readonly endTime: string | null;
  readonly response: VolumeResponse;
}

/**
 * The volume windows fetched for the add-up check: the default (trailing 24 h, no parameters)
 * and a closed window [start, end) with its two consecutive halves [start, mid) and [mid, end).
 * Rule 1 of "GET /volume": whole = firstHalf + secondHalf, field by field.
 */
export interface VolumeChecks {
  readonly default: VolumeSample;
  readonly whole: VolumeSample;
  readonly firstHalf: VolumeSample;
  readonly secondHalf: VolumeSample;
  /**
   * The bounds of the /stats 24 h figures (docs/findings.md "Soundness"): `statsOuter` covers
   * every trailing 24 h window /stats may have been computed over (start = earliest − 24 h, end
   * omitted = the server's now, after /stats), `statsInner` lies inside all of them.
   */
  readonly statsOuter?: VolumeSample;
  readonly statsInner?: VolumeSample;
}

export interface OrderbookSample {
  readonly tickerId: string;
  readonly response: AggregatorOrderbookResponse;
}

/** What a probe quote tests (docs/protocol/api-decisions.md §4 validation order). */
export type ProbeKind = 'minimum' | 'mid' | 'affiliate' | 'below-minimum' | 'mod';

/** One POST /connect/quote sent by the auditor, with what came back. */
export interface ProbeQuote {
  readonly kind: ProbeKind;
  /** the pool whose pair the probe quotes (the sell token's CC pool) */
  readonly poolId: string;
  readonly request: QuoteRequest;
  /** 'accept' = a 200 quote is expected; 'reject' = a 4xx `{error}` is expected */
  readonly expect: 'accept' | 'reject';
  readonly status: number;
  /** the parsed quote when status is 200 and the body has the quote shape, else null */
  readonly quote: ConnectQuoteResponse | null;
  /** the `error` text of a non-200 `{error}` body, else null */
  readonly error: string | null;
  /** why `quote` is null on a 200 (shape error text), else null */
  readonly shapeError: string | null;
  /**
   * set when no usable answer came back (every attempt a 429, 5xx, reset, timeout, truncated or
   * non-JSON body): the reason; `status` is then 0. Never evidence of anything (could-not-check).
   */
  readonly transportError?: string;
  /**
   * ms (the auditor's clock) when the response was complete: the quote was priced before it.
   * Absent in hand-built snapshots.
   */
  readonly receivedAtMs?: number;
}

export interface ApiSnapshot {
  /** the base URL as given (credentials stripped), e.g. http://127.0.0.1:8080/v1/public */
  readonly baseUrl: string;
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
  readonly tokens: ApiResult<TokensInfoResponse>;
  readonly swapInfo: ApiResult<SwapInfoResponse>;
  readonly markets: ApiResult<MarketsInfoResponse>;
  readonly exchangeInfo: ApiResult<ExchangeInfoResponse>;
  /** read pool by pool: a malformed entry is set aside in `malformed` */
  readonly poolsInfo: ApiResult<PoolsInfoPerPool>;
  /** /pools/proof fetched immediately BEFORE /pools/state (read per pool: `malformed` entries set aside) */
  readonly proofsBefore: ApiResult<PoolsProofPerPool>;
  /** read per pool: `malformed` entries set aside */
  readonly poolsState: ApiResult<PoolsStatePerPool>;
  /** /pools/proof fetched immediately AFTER /pools/state */
  readonly proofsAfter: ApiResult<PoolsProofPerPool>;
  readonly stats: ApiResult<StatsResponse>;
  readonly volume: ApiResult<VolumeChecks>;
  readonly aggregatorPairs: ApiResult<AggregatorPairsResponse>;
  readonly aggregatorTickers: ApiResult<AggregatorTickersResponse>;
  /** one per aggregator pair, in pair order */
  readonly orderbooks: ApiResult<readonly OrderbookSample[]>;
  /**
   * where the aggregator data was found (`/aggregator` or `/coingecko`, docs/protocol/api-decisions.md §10);
   * null when neither answered; absent in snapshots made before the discovery existed
   */
  readonly aggregatorPath?: AggregatorPath | null;
  /** null unless probe quotes were requested */
  readonly probeQuotes: ApiResult<readonly ProbeQuote[]> | null;
  /**
   * /pools/proof fetched AFTER the market data and probe quotes (the closing bracket), then once
   * after each round of re-fetched responses; absent in snapshots of older versions
   */
  readonly proofsLater?: readonly ApiResult<PoolsProofPerPool>[];
  /**
   * /stats fetched again in a re-fetch round (followed by a /pools/proof) because its pool TVL
   * could not be decided; its `pool_tvl` replaces the first one's (the 24 h figures stay those of
   * the first fetch, which the /volume bounds were fetched for); absent when not re-fetched
   */
  readonly statsLater?: ApiResult<StatsResponse>;
  /** every response in fetch order */
  readonly raw: readonly RawResponse[];
}

/** The fetched sections of an `ApiSnapshot`, in fetch order (each `ApiResult` or null when not requested). */
export const API_SNAPSHOT_SECTIONS = [
  'tokens',
  'swapInfo',
  'markets',
  'exchangeInfo',
  'poolsInfo',
  'proofsBefore',
  'poolsState',
  'proofsAfter',
  'stats',
  'volume',
  'aggregatorPairs',
  'aggregatorTickers',
  'orderbooks',
  'probeQuotes',
] as const;

/** Names of the sections that were requested but failed (fetch, status or shape). */
export type ApiSnapshotSection = (typeof API_SNAPSHOT_SECTIONS)[number];

export function computeFailedSections(s: ApiSnapshot): ApiSnapshotSection[] {
  return API_SNAPSHOT_SECTIONS.filter((k) => {
    const v = s[k];
    return v !== null && !v.ok;
  });
}
