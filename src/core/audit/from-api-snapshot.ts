/**
 * Normalises an `ApiSnapshot` (src/core/api, as fetched by src/io/http) into the auditor's
 * `AuditSnapshot`. Pure field mapping; a failed section stays a failed section with its reason.
 * The Connect fee rule (0.20 %, 2 CC network fee) is the published one (public-api.md rule 6).
 */
import type { ExchangePolicy } from '../amm/types.js';
import type {
  ApiResult,
  ApiSnapshot,
  VolumeWindow as ApiVolumeWindow,
  ExchangeInfoResponse,
} from '../api/index.js';
import type { AuditSnapshot, Fetched, TokenKey, VolumeWindow } from './snapshot.js';
import { formatMicrosIso } from './time.js';

/** The published Connect fee rule (public-api.md "POST /connect/quote" rule 6). */
export const PUBLISHED_CONNECT_FEE_RATE = '0.002';
export const PUBLISHED_NETWORK_FEE_CC = '2';

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

/** Maps the snapshot; `proofs` are `proofsBefore`. */
export function computeAuditSnapshot(s: ApiSnapshot): AuditSnapshot {
  const proofs = (r: ApiSnapshot['proofsBefore']): AuditSnapshot['proofs'] =>
    map(r, (v) =>
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
    fetchedAt: formatMicrosIso(BigInt(s.startedAtMs) * 1000n),
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
      })),
    ),
    orderbooks: map(s.orderbooks, (v) =>
      v.map((o) => ({ tickerId: o.tickerId, bids: o.response.bids, asks: o.response.asks })),
    ),
    volume: map(s.volume, (v) => ({
      default: vol(v.default.response.data),
      whole: vol(v.whole.response.data),
      parts: [vol(v.firstHalf.response.data), vol(v.secondHalf.response.data)],
    })),
    stats: map(s.stats, (v) => ({
      ccVolume24h: v.stats.swaps.cc_volume_24h,
      count24h: v.stats.swaps.count_24h,
      tvlCc: v.stats.pool_tvl.tvl_cc,
    })),
    policy: map(s.exchangeInfo, policy),
    quotes: s.probeQuotes === null ? null : map(s.probeQuotes, (v) => v),
    cc,
  };
}
