/**
 * Normalises an `ApiSnapshot` (src/core/wire, as fetched by src/io/http) into the auditor's
 * `AuditSnapshot`. Pure field mapping; a failed section stays a failed section with its reason.
 * The Connect fee rule (0.20 %, 2 CC network fee) is the published one (docs/protocol/public-api.md rule 6).
 */
import type { ExchangePolicy } from '../amm/types.js';
import { isAggregatorEndpoint } from '../wire/aggregator.js';
import type {
  ApiResult,
  ApiSnapshot,
  VolumeWindow as ApiVolumeWindow,
  ExchangeInfoResponse,
} from '../wire/index.js';
import type { RawResponse } from '../wire/snapshot.js';
import { formatApiTimestampMicros, parseApiTimestampMs } from '../wire/timestamp.js';
import type { ResponseTiming } from './market-time.js';
import type {
  AuditSnapshot,
  Fetched,
  MalformedEntries,
  MalformedEntry,
  MarketTiming,
  ProofSet,
  TokenKey,
  VolumeWindow,
} from './snapshot.js';

/** The published Connect fee rule (docs/protocol/public-api.md "POST /connect/quote" rule 6). */
const PUBLISHED_CONNECT_FEE_RATE = '0.002';
const PUBLISHED_NETWORK_FEE_CC = '2';

function map<T, U>(r: ApiResult<T>, f: (v: T) => U): Fetched<U> {
  return r.ok ? { ok: true, value: f(r.value) } : { ok: false, reason: `${r.code}: ${r.reason}` };
}

const vol = (w: ApiVolumeWindow): VolumeWindow => ({
  startTime: w.start_time,
  endTime: w.end_time,
  swapCount: w.swap_count,
  volumeCc: w.volume_cc,
  feesCc: w.fees_cc,
  lpFeesCc: w.lp_fees_cc,
  protocolFeesCc: w.protocol_fees_cc,
});

function timingOf(r: RawResponse): ResponseTiming {
  return {
    startedAtMs: r.startedAtMs,
    receivedAtMs: r.startedAtMs + r.durationMs,
    maxAgeSeconds: r.maxAgeSeconds ?? null,
    ageSeconds: r.ageSeconds ?? null,
  };
}

/** Path (below the base URL) and query parameters of a raw response URL. */
function pathOf(url: string, baseUrl: string): { path: string; query: Map<string, string> } {
  const rest = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  const q = rest.indexOf('?');
  const query = new Map<string, string>();
  if (q >= 0)
    for (const kv of rest.slice(q + 1).split('&')) {
      const i = kv.indexOf('=');
      try {
        const k = decodeURIComponent(i < 0 ? kv : kv.slice(0, i));
        query.set(k, decodeURIComponent(i < 0 ? '' : kv.slice(i + 1).replace(/\+/g, ' ')));
      } catch {
        query.set(kv, '');
      }
    }
  return { path: q < 0 ? rest : rest.slice(0, q), query };
}

/** The timing of the last 200 GET of each market-data endpoint (raw responses, fetch order). */
function computeMarketTiming(s: ApiSnapshot): MarketTiming {
  let tickers: ResponseTiming | null = null;
  let pairs: ResponseTiming | null = null;
  let stats: ResponseTiming | null = null;
  // the /stats whose pool TVL is judged: a re-fetched one when it parsed, else the first
  const lastStats = s.statsLater?.ok === true;
  let volumeDefault: ResponseTiming | null = null;
  let poolsMaxAgeSeconds: number | null = null;
  const orderbooks = new Map<string, ResponseTiming>();
  // the base URL's own query and fragment (redacted) follow the endpoint's path (src/io/http/base-url.ts)
  const base = s.baseUrl.replace(/[?#].*$/, '').replace(/\/+$/, '');
  for (const r of s.raw) {
    if (r.method !== 'GET' || r.status !== 200) continue;
    const { path, query } = pathOf(r.url, base);
    if (isAggregatorEndpoint(path, 'tickers')) tickers = timingOf(r);
    else if (isAggregatorEndpoint(path, 'pairs')) pairs = timingOf(r);
    else if (path === '/stats') {
      if (stats === null || lastStats) stats = timingOf(r);
    } else if (path === '/volume' && query.size === 0) volumeDefault = timingOf(r);
    else if (path === '/pools/state') poolsMaxAgeSeconds = r.maxAgeSeconds ?? null;
    else if (isAggregatorEndpoint(path, 'orderbook')) {
      const id = query.get('ticker_id');
      if (id !== undefined) orderbooks.set(id, timingOf(r));
    }
  }
  return { tickers, pairs, orderbooks, stats, volumeDefault, poolsMaxAgeSeconds };
}

/** /pools/proof entries, normalised. */
function mapProofs(r: ApiSnapshot['proofsBefore']): AuditSnapshot['proofs'] {
  return map(r, (v) =>
    v.data.pools.map((p) => ({
      poolId: p.pool_id,
      poolCid: p.pool_cid,
      tokenA: { admin: p.token_a_instrument.admin, id: p.token_a_instrument.id },
      tokenB: { admin: p.token_b_instrument.admin, id: p.token_b_instrument.id },
      contractId: p.reserve_contract.contract_id,
      updateId: p.reserve_contract.update_id,
      template: {
        packageId: p.reserve_contract.template.package_id,
        packageName: p.reserve_contract.template.package_name,
        moduleName: p.reserve_contract.template.module_name,
        entityName: p.reserve_contract.template.entity_name,
      },
      ledgerCreatedAt: p.reserve_contract.ledger_created_at,
      createdEventBlob: p.reserve_contract.created_event_blob,
      reserveA: p.reserve_contract.reserve_a,
      reserveB: p.reserve_contract.reserve_b,
      totalLpSupply: p.reserve_contract.total_lp_supply,
    })),
  );
}

/** The malformed pool entries of both proof fetches (one per pool or index and path), of the state and of /pools/info. */
function computeMalformedEntries(s: ApiSnapshot): MalformedEntries {
  const proofs: MalformedEntry[] = [];
  const seen = new Set<string>();
  for (const r of [s.proofsBefore, s.proofsAfter, ...(s.proofsLater ?? [])])
    for (const m of r.ok ? (r.value.malformed ?? []) : []) {
      const key = `${m.poolId ?? `#${m.index}`}|${m.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      proofs.push(m);
    }
  return {
    proofs,
    state: s.poolsState.ok ? (s.poolsState.value.malformed ?? []) : [],
    info: s.poolsInfo.ok ? (s.poolsInfo.value.malformed ?? []) : [],
  };
}

/** Maps the snapshot; `proofs` are `proofsBefore`. */
export function computeAuditSnapshot(s: ApiSnapshot): AuditSnapshot {
  const proofs = mapProofs;
  const proofSets: ProofSet[] = [];
  for (const r of [s.proofsBefore, s.proofsAfter, ...(s.proofsLater ?? [])]) {
    if (!r.ok) continue;
    const at = parseApiTimestampMs(r.value.data.updated_at);
    const entries = proofs(r);
    if (at !== null && entries.ok) proofSets.push({ updatedAtMs: at, entries: entries.value });
  }

  const cc: TokenKey | null = s.swapInfo.ok
    ? {
        admin: s.swapInfo.value.data.fees.network_fee.instrument_admin,
        id: s.swapInfo.value.data.fees.network_fee.instrument_id,
      }
    : null;
  const policy = (e: ExchangeInfoResponse): ExchangePolicy => ({
    connectFeeRate: PUBLISHED_CONNECT_FEE_RATE,
    networkFeeCc: PUBLISHED_NETWORK_FEE_CC,
    transferFeeCc: e.data.fees.transfer.amount,
    allocationFeeCc: e.data.fees.allocation.amount,
    freeTransfersPerDay: e.data.policy.free_transfers_per_day,
    minRecommendedCcBalance: e.data.policy.min_recommended_cc_balance,
    minSwapAmountForFeeWaiverCc: e.data.policy.min_swap_amount_for_fee_waiver,
    minSwapAmountSizeCc: e.data.policy.min_swap_amount_size_cc,
    minConnectSwapAmountSizeCc: e.data.policy.min_connect_swap_amount_size_cc,
    needInviteCode: e.data.policy.need_invite_code,
  });
  return {
    baseUrl: s.baseUrl,
    fetchedAt: formatApiTimestampMicros(BigInt(s.startedAtMs) * 1000n),
    proofs: proofs(s.proofsBefore),
    proofsAfter: proofs(s.proofsAfter),
    state: map(s.poolsState, (v) =>
      v.data.pools.map((p) => ({
        poolId: p.pool_id,
        contractId: p.contract_id,
        symbol: p.symbol,
        tokenA: { ...p.token_a_instrument },
        tokenB: { ...p.token_b_instrument },
        feeRate: p.fee_rate,
        reserveA: p.reserve_a,
        reserveB: p.reserve_b,
        price: p.price,
        tvlCc: p.tvl_cc,
      })),
    ),
    poolsInfo: map(s.poolsInfo, (v) =>
      v.pools.map((p) => ({
        contractId: p.contract_id,
        poolId: p.pool_id,
        tokenA: { admin: p.token_a_instrument_admin, id: p.token_a_instrument_id },
        tokenB: { admin: p.token_b_instrument_admin, id: p.token_b_instrument_id },
        feeRate: p.fee_rate,
        adminFeeShare: p.admin_fee_share,
      })),
    ),
    tokens: map(s.tokens, (v) =>
      v.tokens.map((t) => ({
        admin: t.info.instrument_admin,
        id: t.info.instrument_id,
        name: t.info.instrument_name,
        symbol: t.info.instrument_symbol,
      })),
    ),
    markets: map(s.markets, (v) => v.data.markets.map((m) => ({ symbol: m.symbol, source: m.source }))),
    pairs: map(s.aggregatorPairs, (v) =>
      v.map((p) => ({ tickerId: p.ticker_id, base: p.base, target: p.target, poolId: p.pool_id })),
    ),
    tickers: map(s.aggregatorTickers, (v) =>
      v.map((t) => ({
        tickerId: t.ticker_id,
        poolId: t.pool_id,
        lastPrice: t.last_price,
        bid: t.bid,
        ask: t.ask,
        contractId: t.contract_id ?? null,
      })),
    ),
    orderbooks: map(s.orderbooks, (v) =>
      v.map((o) => ({
        tickerId: o.tickerId,
        timestampMs: o.response.timestamp,
        bids: o.response.bids,
        asks: o.response.asks,
      })),
    ),
    volume: map(s.volume, (v) => ({
      default: vol(v.default.response.data),
      whole: vol(v.whole.response.data),
      parts: [vol(v.firstHalf.response.data), vol(v.secondHalf.response.data)],
      ...(v.statsOuter === undefined || v.statsInner === undefined
        ? {}
        : { statsOuter: vol(v.statsOuter.response.data), statsInner: vol(v.statsInner.response.data) }),
    })),
    stats: map(s.stats, (v) => {
      const tvl = s.statsLater?.ok === true ? s.statsLater.value.stats.pool_tvl : v.stats.pool_tvl;
      const at = tvl.updated_at === undefined ? null : parseApiTimestampMs(tvl.updated_at);
      return {
        ccVolume24h: v.stats.swaps.cc_volume_24h,
        count24h: v.stats.swaps.count_24h,
        tvlCc: tvl.tvl_cc,
        ...(at === null ? {} : { tvlUpdatedAtMs: at }),
      };
    }),
    policy: map(s.exchangeInfo, policy),
    quotes: s.probeQuotes === null ? null : map(s.probeQuotes, (v) => v),
    cc,
    malformed: computeMalformedEntries(s),
    proofSets,
    timing: computeMarketTiming(s),
  };
}
