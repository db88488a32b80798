/**
 * `fetchSnapshot`: one audit's worth of the public API (docs/protocol/public-api.md "Endpoints"). Order:
 * /pools/proof, /pools/state, /pools/proof (so state is bracketed by two proof sets), then the
 * market data, /volume (default window, plus a closed window and its two halves for the add-up
 * check), the aggregator endpoints (found under /aggregator or, when that path is 404, /coingecko —
 * docs/protocol/api-decisions.md §10; one order book per pair, 12 in flight, recorded in pair order) and, on
 * request, probe quotes (8 in flight, recorded in plan order). Each raw response keeps its fetch time and
 * cache headers (Cache-Control max-age, Age, Date) for the cached-market-data reasoning of src/core/audit.
 * Each section is parsed strictly; a failing section is recorded as `{ok:false}` and the others
 * are still fetched. If the very first request cannot connect, times out or exhausts its retry
 * budget, the whole snapshot fails with that HttpError instead of waiting out every other endpoint.
 */
import { computeStatsVolumeBounds } from '../../core/audit/stats-bounds.js';
import {
  AGGREGATOR_PATHS,
  type AggregatorPath,
  type ApiResult,
  type ApiSnapshot,
  computeProbePlan,
  formatApiTimestamp,
  type OrderbookSample,
  type ParseOptions,
  type ProbeQuote,
  parseAggregatorOrderbookResponse,
  parseAggregatorPairsResponse,
  parseAggregatorTickersResponse,
  parseConnectQuoteResponse,
  parseErrorResponse,
  parseExchangeInfoResponse,
  parseMarketsInfoResponse,
  parsePoolsInfoPerPool,
  parsePoolsProofPerPool,
  parsePoolsStatePerPool,
  parseStatsResponse,
  parseSwapInfoResponse,
  parseTokensInfoResponse,
  parseVolumeResponse,
  type RawResponse,
  type StatsResponse,
  type VolumeChecks,
  type VolumeSample,
} from '../../core/wire/index.js';
import { isReserveAuditError } from '../../errors/base.js';
import { HttpError } from '../../errors/http.js';
import { type BaseUrl, joinBaseUrl, parseBaseUrl } from './base-url.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './client.js';
import { parseJsonBody, statusError } from './response.js';

export interface SnapshotProgress {
  /** the endpoint path just fetched, e.g. "/pools/state" */
  readonly step: string;
  /** requests completed so far */
  readonly done: number;
}

export interface FetchSnapshotOptions {
  /** e.g. http://127.0.0.1:8080/v1/public; a string is parsed once (`parseBaseUrl`): only its redacted form is shown or stored */
  readonly baseUrl: string | BaseUrl;
  /** each request's budget, retries included (default 30,000 ms) */
  readonly timeoutMs?: number;
  readonly probeQuotes?: boolean;
  readonly onProgress?: (p: SnapshotProgress) => void;
  /** an existing client (its options win over timeoutMs); otherwise one is created and closed */
  readonly client?: HttpClient;
  readonly clientOptions?: HttpClientOptions;
  readonly parseOptions?: ParseOptions;
  readonly now?: () => number;
}

const HOUR_MS = 3_600_000;
/** Order books in flight at once (one per pair; ~1,000 on a large exchange). */
const ORDERBOOK_CONCURRENCY = 12;
/**
 * Where probe quotes are sent: /connect/quote, asking for the reserve contracts' blobs (an
 * extension of the reference server, docs/findings.md "Soundness"; an exchange without it ignores
 * the parameter and the quote is checked against the contracts the proofs showed).
 */
const PROBE_QUOTE_PATH = '/connect/quote?include_proof=true';
/** The tickers with the reserve contract each was computed from (below the aggregator path). */
const TICKERS_PROOF_PATH = '/tickers?include_proof=true';
/** Probe quotes in flight at once (about four per pool). */
const PROBE_CONCURRENCY = 8;

function failure(e: unknown): { ok: false; reason: string; code: string } {
  if (isReserveAuditError(e)) return { ok: false, reason: e.shortMessage, code: e.code };
  return { ok: false, reason: e instanceof Error ? e.message : String(e), code: 'INTERNAL' };
}

type ProbePlanEntry = Omit<ProbeQuote, 'status' | 'quote' | 'error' | 'shapeError'>;

/** Extra proof → state → proof rounds when the state came from a snapshot neither proof showed. */
const STATE_BRACKET_ROUNDS = 2;

type ProofSection = ApiResult<Awaited<ReturnType<typeof parsePoolsProofPerPool>>>;

/** True when some pool's state names a reserve contract neither proof set around it shows. */
function isStateOutsideBracket(
  before: ProofSection,
  state: ApiResult<Awaited<ReturnType<typeof parsePoolsStatePerPool>>>,
  after: ProofSection,
): boolean {
  if (!before.ok || !state.ok || !after.ok) return false;
  const shown = new Set<string>();
  const proven = new Set<string>();
  for (const set of [before.value, after.value])
    for (const p of set.data.pools) {
      proven.add(p.pool_id);
      shown.add(`${p.pool_id}\u0000${p.reserve_contract.contract_id}`);
    }
  // a pool no proof lists (an empty pool) has its own check; it is no reason to ask again
  return state.value.data.pools.some(
    (p) => proven.has(p.pool_id) && !shown.has(`${p.pool_id}\u0000${p.contract_id}`),
  );
}

/** A probe that got no usable answer (its budget ran out): could-not-check, re-sent in a later round. */
function unansweredProbe(p: ProbePlanEntry, e: unknown): ProbeQuote {
  return {
    kind: p.kind,
    poolId: p.poolId,
    request: p.request,
    expect: p.expect,
    status: 0,
    quote: null,
    error: null,
    shapeError: null,
    transportError: isReserveAuditError(e) ? e.shortMessage : String(e),
  };
}

/** A probe with what came back for it. */
function readProbe(p: ProbePlanEntry, r: RawResponse, po: ParseOptions): ProbeQuote {
  let quote: ProbeQuote['quote'] = null;
  let error: string | null = null;
  let shapeError: string | null = null;
  try {
    const json = parseJsonBody(r);
    if (r.status === 200) quote = parseConnectQuoteResponse(json, po);
    else error = parseErrorResponse(json, po).error;
  } catch (e) {
    shapeError = isReserveAuditError(e) ? e.shortMessage : String(e);
  }
  return {
    kind: p.kind,
    poolId: p.poolId,
    request: p.request,
    expect: p.expect,
    status: r.status,
    quote,
    error,
    shapeError,
    receivedAtMs: r.startedAtMs + r.durationMs,
  };
}

/** `fn` over `items` with at most `limit` in flight; results in the order of `items`. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => worker()));
  return out;
}

/** A section of the snapshot: its value, or why it could not be fetched. */
async function section<T>(fn: () => Promise<T>): Promise<ApiResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

/** GETs below `base`, each answer handed to `record` as it comes; `getJson` requires a 200 and parses. */
function createFetcher(
  client: HttpClient,
  base: BaseUrl,
  po: ParseOptions,
  record: (r: RawResponse, path: string) => void,
) {
  const call = async (path: string): Promise<RawResponse> => {
    const r = await client.send('GET', joinBaseUrl(base, path));
    record(r, path);
    return r;
  };
  const getJson = async <T>(path: string, parse: (j: unknown, o: ParseOptions) => T): Promise<T> => {
    const r = await call(path);
    if (r.status !== 200) throw statusError(r);
    return parse(parseJsonBody(r), po);
  };
  return { call, getJson };
}

/** One probe quote sent; no usable answer is could-not-check (`r` null), never a rejected quote. */
async function sendProbe(
  client: HttpClient,
  base: BaseUrl,
  p: ProbePlanEntry,
  po: ParseOptions,
): Promise<{ readonly r: RawResponse | null; readonly quote: ProbeQuote }> {
  try {
    const r = await client.send('POST', joinBaseUrl(base, PROBE_QUOTE_PATH), JSON.stringify(p.request), {
      read: true,
    });
    return { r, quote: readProbe(p, r, po) };
  } catch (e) {
    return { r: null, quote: unansweredProbe(p, e) };
  }
}

export interface RefetchRequest {
  /** a string is parsed once (`parseBaseUrl`) */
  readonly baseUrl: string | BaseUrl;
  readonly client: HttpClient;
  /** order books to fetch again; `depth` differs from the first fetch, so a cached book is not served again */
  readonly orderbooks: readonly { readonly tickerId: string; readonly depth: number }[];
  /** probes to send again */
  readonly quotes: readonly ProbeQuote[];
  /** fetch /stats again (its pool TVL could not be decided), right before the closing /pools/proof */
  readonly stats?: boolean;
  /** fetch /pools/proof before the quotes too (proof → quotes → proof) */
  readonly proofsFirst?: boolean;
  readonly parseOptions?: ParseOptions;
}

export interface RefetchResult {
  /** the order books that came back (a failed one is left out: the first one stands) */
  readonly orderbooks: readonly OrderbookSample[];
  /** same order as requested */
  readonly quotes: readonly ProbeQuote[];
  /** /pools/proof fetched before them (with `proofsFirst`) */
  readonly proofsBefore?: ProofSection;
  /** /stats, when requested */
  readonly stats?: ApiResult<StatsResponse>;
  /** /pools/proof fetched after them (the closing bracket of this round) */
  readonly proofs: ProofSection;
  readonly raw: readonly RawResponse[];
}

/**
 * One re-fetch round (docs/findings.md "Soundness"): the given order books and probe quotes
 * again, /stats if asked, then /pools/proof. Never throws for a failing request.
 */
export async function refetchMarketData(o: RefetchRequest): Promise<RefetchResult> {
  const po = o.parseOptions ?? {};
  const base = parseBaseUrl(o.baseUrl);
  const raw: RawResponse[] = [];
  const orderbooks: OrderbookSample[] = [];
  const { getJson } = createFetcher(o.client, base, po, (r) => raw.push(r));
  const fetchProofs = () => section(() => getJson('/pools/proof', parsePoolsProofPerPool));
  // side by side, like the first fetch (a round of a large exchange re-asks hundreds of books);
  // results and raw records keep the order asked
  const books = await mapBounded(o.orderbooks, ORDERBOOK_CONCURRENCY, async (b) => {
    const path = `/aggregator/orderbook?ticker_id=${encodeURIComponent(b.tickerId)}&depth=${b.depth}`;
    let r: RawResponse;
    try {
      r = await o.client.send('GET', joinBaseUrl(base, path));
    } catch {
      return null; // the first fetch stands
    }
    try {
      const response = parseAggregatorOrderbookResponse(parseJsonBody(r), po);
      return { r, sample: r.status === 200 ? { tickerId: b.tickerId, response } : null };
    } catch {
      return { r, sample: null }; // recorded; the first fetch stands
    }
  });
  for (const b of books) {
    if (b === null) continue;
    raw.push(b.r);
    if (b.sample !== null) orderbooks.push(b.sample);
  }
  const before = o.proofsFirst === true && o.quotes.length > 0 ? await fetchProofs() : undefined;
  const answers = await mapBounded(o.quotes, PROBE_CONCURRENCY, (q) => sendProbe(o.client, base, q, po));
  const quotes = answers.map((a) => {
    if (a.r !== null) raw.push(a.r);
    return a.quote;
  });
  const stats = o.stats === true ? await section(() => getJson('/stats', parseStatsResponse)) : undefined;
  const proofs = await fetchProofs();
  return {
    orderbooks,
    quotes,
    proofs,
    raw,
    ...(before === undefined ? {} : { proofsBefore: before }),
    ...(stats === undefined ? {} : { stats }),
  };
}

/** Fetches and validates everything one audit needs; never throws for one failing endpoint. */
export async function fetchSnapshot(options: FetchSnapshotOptions): Promise<ApiSnapshot> {
  const now = options.now ?? Date.now;
  const client =
    options.client ??
    createHttpClient({
      ...(options.now === undefined ? {} : { now: options.now }),
      ...options.clientOptions,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  const po = options.parseOptions ?? {};
  const base = parseBaseUrl(options.baseUrl);
  const raw: RawResponse[] = [];
  let done = 0;
  const startedAtMs = now();

  const record = (r: RawResponse, path: string): void => {
    raw.push(r);
    done++;
    options.onProgress?.({ step: path.split('?')[0] ?? path, done });
  };
  const { call, getJson } = createFetcher(client, base, po, record);

  try {
    let proofsBefore: ProofSection;
    try {
      proofsBefore = { ok: true, value: await getJson('/pools/proof', parsePoolsProofPerPool) };
    } catch (e) {
      if (
        e instanceof HttpError &&
        (e.code === 'HTTP_CONNECT_FAILED' ||
          e.code === 'HTTP_TIMEOUT' ||
          e.code === 'HTTP_REQUEST_INVALID' ||
          // every attempt of the budget failed (an exchange answering 503 to all): the others would too
          Number(e.details.attempts) > 1)
      )
        throw e;
      proofsBefore = failure(e);
    }
    let poolsState = await section(() => getJson('/pools/state', parsePoolsStatePerPool));
    let proofsAfter = await section(() => getJson('/pools/proof', parsePoolsProofPerPool));
    // the state bracket: /pools/state names, per pool, the contract of the pool snapshot it was
    // served from; when neither proof around it shows that contract (the three answers came from
    // different pool snapshots — retries and slow answers stretch the bracket past one snapshot),
    // the state is asked again between two proofs, the last proof becoming the first
    for (
      let round = 0;
      round < STATE_BRACKET_ROUNDS && isStateOutsideBracket(proofsBefore, poolsState, proofsAfter);
      round++
    ) {
      proofsBefore = proofsAfter;
      poolsState = await section(() => getJson('/pools/state', parsePoolsStatePerPool));
      proofsAfter = await section(() => getJson('/pools/proof', parsePoolsProofPerPool));
    }
    // independent of each other and of the brackets' order (they come after the second proof and
    // before the closing one): fetched together, so a retried one does not hold up the others
    const [tokens, swapInfo, markets, exchangeInfo, poolsInfo] = await Promise.all([
      section(() => getJson('/tokens/info', parseTokensInfoResponse)),
      section(() => getJson('/swap/info', parseSwapInfoResponse)),
      section(() => getJson('/markets/info', parseMarketsInfoResponse)),
      section(() => getJson('/exchange/info', parseExchangeInfoResponse)),
      section(() => getJson('/pools/info', parsePoolsInfoPerPool)),
    ]);
    // three branches with no order between them (all come after the second proof and before the
    // closing one): /stats then the /volume windows; the aggregator pairs, then tickers and order
    // books; the probe quotes. A retried request of one branch does not hold up the others.
    let aggregatorPath: AggregatorPath | null = null;
    const statsBranch = async () => {
      const stats = await section(() => getJson('/stats', parseStatsResponse));
      const volume = await section(async (): Promise<VolumeChecks> => {
        const sample = async (start: number | null, end: number | null): Promise<VolumeSample> => {
          const startTime = start === null ? null : formatApiTimestamp(start);
          const endTime = end === null ? null : formatApiTimestamp(end);
          const q: string[] = [];
          if (startTime !== null) q.push(`start_time=${encodeURIComponent(startTime)}`);
          if (endTime !== null) q.push(`end_time=${encodeURIComponent(endTime)}`);
          const response = await getJson(
            `/volume${q.length > 0 ? `?${q.join('&')}` : ''}`,
            parseVolumeResponse,
          );
          return { startTime, endTime, response };
        };
        // a closed window: ends at the last whole minute at least one minute ago
        const end = Math.floor(startedAtMs / 60_000) * 60_000 - 60_000;
        const start = end - 24 * HOUR_MS;
        const mid = end - 12 * HOUR_MS;
        const [dflt, whole, firstHalf, secondHalf] = await Promise.all([
          sample(null, null),
          sample(start, end),
          sample(start, mid),
          sample(mid, end),
        ]);
        const out: VolumeChecks = { default: dflt, whole, firstHalf, secondHalf };
        // bounds of the /stats 24 h figures, fetched after /stats (core/audit/volume-checks.ts)
        const statsRaw = [...raw].reverse().find((r) => r.url.split('?')[0]?.endsWith('/stats'));
        if (statsRaw === undefined || statsRaw.status !== 200) return out;
        const b = computeStatsVolumeBounds(statsRaw.startedAtMs, statsRaw.startedAtMs + statsRaw.durationMs);
        try {
          const [statsOuter, statsInner] = await Promise.all([
            sample(b.outerStartMs, null),
            sample(b.innerStartMs, b.innerEndMs),
          ]);
          return { ...out, statsOuter, statsInner };
        } catch {
          // e.g. the exchange's clock is far behind ours: the stats check then has no bounds
          return out;
        }
      });
      return { stats, volume };
    };
    const aggregatorBranch = async () => {
      // api-decisions §10: the aggregator data is under /aggregator or /coingecko, whichever answers
      const aggregatorPairs = await section(async () => {
        let last: RawResponse | undefined;
        for (const ns of AGGREGATOR_PATHS) {
          last = await call(`${ns}/pairs`);
          if (last.status === 404) continue;
          if (last.status !== 200) throw statusError(last);
          aggregatorPath = ns;
          return parseAggregatorPairsResponse(parseJsonBody(last), po);
        }
        throw statusError(last as RawResponse);
      });
      const agg: AggregatorPath = aggregatorPath ?? AGGREGATOR_PATHS[0];
      // `?include_proof=true` (an extension, docs/decisions/server.md "Tickers"): each ticker names
      // the reserve contract it was computed from and carries its blob; a server without it ignores
      // the parameter, and one that refuses it is asked without
      const tickersBranch = section(async () => {
        const r = await call(`${agg}${TICKERS_PROOF_PATH}`);
        if (r.status === 200) return parseAggregatorTickersResponse(parseJsonBody(r), po);
        if (r.status !== 400 && r.status !== 404) throw statusError(r);
        return getJson(`${agg}/tickers`, parseAggregatorTickersResponse);
      });
      const orderbooksBranch = section(async (): Promise<OrderbookSample[]> => {
        if (!aggregatorPairs.ok)
          throw new HttpError(
            'HTTP_STATUS',
            `no pair list to fetch order books for (${aggregatorPairs.reason})`,
          );
        // bounded concurrency; results (and the raw records) keep pair order; no book is asked
        // after one failed
        let failed = false;
        const books = await mapBounded(aggregatorPairs.value, ORDERBOOK_CONCURRENCY, async (pair) => {
          if (failed) return null;
          let r: RawResponse | undefined;
          try {
            r = await client.send(
              'GET',
              joinBaseUrl(base, `${agg}/orderbook?ticker_id=${encodeURIComponent(pair.ticker_id)}`),
            );
            if (r.status !== 200) throw statusError(r);
            const response = parseAggregatorOrderbookResponse(parseJsonBody(r), po);
            return { r, sample: { tickerId: pair.ticker_id, response } };
          } catch (error) {
            failed = true;
            return { r, error };
          }
        });
        for (const b of books) if (b?.r !== undefined) record(b.r, `${agg}/orderbook`);
        const out: OrderbookSample[] = [];
        for (const b of books) {
          if (b === null) continue;
          if ('error' in b) throw b.error;
          out.push(b.sample);
        }
        return out;
      });
      const [aggregatorTickers, orderbooks] = await Promise.all([tickersBranch, orderbooksBranch]);
      return { aggregatorPairs, aggregatorTickers, orderbooks };
    };
    const probesBranch = async (): Promise<ApiResult<readonly ProbeQuote[]> | null> => {
      if (options.probeQuotes !== true) return null;
      return section(async () => {
        if (!poolsState.ok || !exchangeInfo.ok || !swapInfo.ok) {
          throw new HttpError('HTTP_STATUS', 'probe quotes need /pools/state, /exchange/info and /swap/info');
        }
        const plan = computeProbePlan(
          poolsState.value,
          exchangeInfo.value,
          swapInfo.value.data.fees.network_fee,
        );
        // bounded concurrency (a large exchange has ~4 probes per pool); results and the raw
        // records keep plan order. A probe that got no usable answer is sent again in a re-fetch round.
        const answers = await mapBounded(plan, PROBE_CONCURRENCY, (p) => sendProbe(client, base, p, po));
        return answers.map((a) => {
          if (a.r !== null) record(a.r, PROBE_QUOTE_PATH);
          return a.quote;
        });
      });
    };
    const [{ stats, volume }, { aggregatorPairs, aggregatorTickers, orderbooks }, probeQuotes] =
      await Promise.all([statsBranch(), aggregatorBranch(), probesBranch()]);
    // the closing bracket: proofs AFTER the market data and the quotes
    const proofsLater = [await section(() => getJson('/pools/proof', parsePoolsProofPerPool))];
    return {
      baseUrl: base.display,
      startedAtMs,
      finishedAtMs: now(),
      tokens,
      swapInfo,
      markets,
      exchangeInfo,
      poolsInfo,
      proofsBefore,
      poolsState,
      proofsAfter,
      stats,
      volume,
      aggregatorPairs,
      aggregatorTickers,
      orderbooks,
      aggregatorPath,
      probeQuotes,
      proofsLater,
      raw,
    };
  } finally {
    if (options.client === undefined) await client.close();
  }
}
