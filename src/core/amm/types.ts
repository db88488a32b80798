/**
 * The AMM vocabulary shared by the pure math (src/core/amm), the simulated ledger
 * (src/sim) and the HTTP routes (src/server/routes). docs/protocol/public-api.md "Resources",
 * docs/protocol/api-decisions.md §1–§6. All amounts are decimal strings (`Amount`), never JS numbers.
 */

/** A decimal string, e.g. "100.0000000000"; token amounts are Daml Numeric 10. */
export type Amount = string;

/** A token is referenced everywhere by (instrument_admin, instrument_id). */
export interface TokenRef {
  readonly admin: string;
  readonly id: string;
}

export interface Token extends TokenRef {
  readonly name: string;
  /** upper-case display symbol, may contain '-' and '.', e.g. "CC", "USDCX", "TF-USDT" */
  readonly symbol: string;
  /** id at an external price aggregator, or null */
  readonly priceAggregatorId: string | null;
}

/** The on-ledger reserve contract currently backing a pool (docs/protocol/api-decisions.md §3). */
export interface ReserveContractRef {
  /** lower-case hex contract ID */
  readonly contractId: string;
  readonly updateId: string;
  /** microseconds since the epoch */
  readonly createdAtMicros: bigint;
  /** base64 created_event_blob */
  readonly createdEventBlob: string;
  readonly packageId: string;
  readonly packageName: string;
  readonly moduleName: string;
  readonly entityName: string;
}

/** One pool at one moment. token a = market base, token b = market quote (api-decisions §2). */
export interface PoolState {
  readonly poolId: string;
  readonly tokenA: Token;
  readonly tokenB: Token;
  readonly reserveA: Amount;
  readonly reserveB: Amount;
  readonly totalLpSupply: Amount;
  /** swap fee as a fraction, e.g. "0.003" */
  readonly feeRate: Amount;
  /** fraction of each pool fee that goes to the protocol, e.g. "0.1" */
  readonly adminFeeShare: Amount;
  /** false once the pool is retired; inactive pools are absent from /pools/proof */
  readonly active: boolean;
  readonly reserveContract: ReserveContractRef;
  /** per-pool counter, +1 on each new reserve contract */
  readonly sequence: bigint;
}

/** Fees and policy (GET /exchange/info, docs/protocol/api-decisions.md §4). */
export interface ExchangePolicy {
  /** Connect fee, fraction of the sell amount, e.g. "0.002" */
  readonly connectFeeRate: Amount;
  /** fixed network fee in CC, e.g. "2" */
  readonly networkFeeCc: Amount;
  readonly transferFeeCc: Amount;
  readonly allocationFeeCc: Amount;
  readonly freeTransfersPerDay: number;
  readonly minRecommendedCcBalance: Amount;
  readonly minSwapAmountForFeeWaiverCc: Amount;
  readonly minSwapAmountSizeCc: Amount;
  readonly minConnectSwapAmountSizeCc: Amount;
  readonly needInviteCode: boolean;
}

/** One executed swap hop on the ledger: what /stats, /volume, tickers and candles are built from. */
export interface SwapEvent {
  /** monotonically increasing id */
  readonly seq: number;
  /** execution time, milliseconds since the epoch */
  readonly tsMs: number;
  readonly poolId: string;
  readonly trader: string;
  readonly sell: TokenRef;
  readonly buy: TokenRef;
  /** amount that entered the pool's curve, fee included */
  readonly sellAmount: Amount;
  readonly buyAmount: Amount;
  /** pool fee in the sell token; = protocolFee + lpFee */
  readonly poolFee: Amount;
  readonly protocolFee: Amount;
  readonly lpFee: Amount;
  /** CC valuation of the swap (sell side) and its fees, at the pool's mid price at execution */
  readonly volumeCc: Amount;
  readonly feeCc: Amount;
  readonly protocolFeeCc: Amount;
  readonly lpFeeCc: Amount;
  /** base/quote amounts for tickers/candles (token a / token b of the pool) */
  readonly baseAmount: Amount;
  readonly quoteAmount: Amount;
  /** pool mid price (reserve_b / reserve_a) right after the swap */
  readonly priceAfter: Amount;
  /** seconds from transfer to payout, two decimals */
  readonly executionSeconds: Amount;
}
