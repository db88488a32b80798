/**
 * Swap plans backed by their exact (bigint) values (docs/protocol/api-decisions.md §1, §4): the `Dec` fields
 * of `SwapHopPlan`/`SwapPlan` are built on first read, so rendering a quote body (which reads the
 * exact values) never builds them. `toJSON` lists every field as the interfaces do.
 */
import type { Dec } from '../money/decimal.js';
import { type Fixed, fixedToDec, toFx } from './exact.js';
import type { NetworkFeeSource, SwapHopPlan, SwapPlan, SwapPlanMode } from './swap-plan-types.js';
import type { PoolState, TokenRef } from './types.js';

/** The `Dec` of `exact[k]`, built on its first read and kept in `built`. */
function decOf<K extends string>(built: { [P in K]?: Dec }, exact: Readonly<Record<K, Fixed>>, k: K): Dec {
  built[k] ??= fixedToDec(exact[k]);
  return built[k];
}

/** The exact (bigint) values a hop plan was built from, kept for rendering without re-parsing. */
export interface SwapHopExact {
  readonly reserveIn: Fixed;
  readonly reserveOut: Fixed;
  readonly amountIn: Fixed;
  readonly poolFee: Fixed;
  readonly protocolFee: Fixed;
  readonly lpFee: Fixed;
  readonly amountOut: Fixed;
  readonly amountOutNoFees: Fixed;
  readonly newReserveA: Fixed;
  readonly newReserveB: Fixed;
}

/**
 * A hop plan backed by its exact values: the `Dec` fields are built on first read (most callers
 * only render, which reads the exact values directly).
 */
export class ExactSwapHopPlan implements SwapHopPlan {
  private readonly decs: { -readonly [K in keyof SwapHopExact]?: Dec } = {};
  constructor(
    readonly pool: PoolState,
    readonly sell: TokenRef,
    readonly buy: TokenRef,
    readonly exact: SwapHopExact,
  ) {}
  private dec(k: keyof SwapHopExact): Dec {
    return decOf(this.decs, this.exact, k);
  }
  get reserveInBefore(): Dec {
    return this.dec('reserveIn');
  }
  get reserveOutBefore(): Dec {
    return this.dec('reserveOut');
  }
  get amountIn(): Dec {
    return this.dec('amountIn');
  }
  get poolFee(): Dec {
    return this.dec('poolFee');
  }
  get protocolFee(): Dec {
    return this.dec('protocolFee');
  }
  get lpFee(): Dec {
    return this.dec('lpFee');
  }
  get amountOut(): Dec {
    return this.dec('amountOut');
  }
  get amountOutNoFees(): Dec {
    return this.dec('amountOutNoFees');
  }
  get newReserveA(): Dec {
    return this.dec('newReserveA');
  }
  get newReserveB(): Dec {
    return this.dec('newReserveB');
  }
  /** plain data (JSON.stringify, test diffs): every field, as the interface lists them */
  toJSON(): Record<string, unknown> {
    const { pool, sell, buy } = this;
    return {
      pool,
      sell,
      buy,
      reserveInBefore: this.reserveInBefore,
      reserveOutBefore: this.reserveOutBefore,
      amountIn: this.amountIn,
      poolFee: this.poolFee,
      protocolFee: this.protocolFee,
      lpFee: this.lpFee,
      amountOut: this.amountOut,
      amountOutNoFees: this.amountOutNoFees,
      newReserveA: this.newReserveA,
      newReserveB: this.newReserveB,
    };
  }
}

/** The exact values of a hop plan (kept for plans built here, else read from its Decs). */
export function computeSwapHopExact(h: SwapHopPlan): SwapHopExact {
  if (h instanceof ExactSwapHopPlan) return h.exact;
  const fx = (d: Dec): Fixed => toFx(d);
  return {
    reserveIn: fx(h.reserveInBefore),
    reserveOut: fx(h.reserveOutBefore),
    amountIn: fx(h.amountIn),
    poolFee: fx(h.poolFee),
    protocolFee: fx(h.protocolFee),
    lpFee: fx(h.lpFee),
    amountOut: fx(h.amountOut),
    amountOutNoFees: fx(h.amountOutNoFees),
    newReserveA: fx(h.newReserveA),
    newReserveB: fx(h.newReserveB),
  };
}

/** The exact values of a plan's totals (for rendering). */
export interface SwapPlanExact {
  readonly sellAmount: Fixed;
  readonly amountOut: Fixed;
  readonly amountOutNoFees: Fixed;
  readonly networkFee: Fixed;
  readonly connectFee: Fixed;
}

/** A plan backed by its exact totals; the `Dec` fields are built on first read. */
export class ExactSwapPlan implements SwapPlan {
  private readonly decs: { -readonly [K in keyof SwapPlanExact | 'sellAmountCc']?: Dec } = {};
  constructor(
    readonly mode: SwapPlanMode,
    readonly sell: TokenRef,
    readonly buy: TokenRef,
    readonly networkFeeSource: NetworkFeeSource,
    readonly hops: readonly SwapHopPlan[],
    readonly exact: SwapPlanExact,
    private readonly sellAmountCcExact: Fixed | null,
  ) {}
  private dec(k: keyof SwapPlanExact): Dec {
    return decOf(this.decs, this.exact, k);
  }
  get sellAmount(): Dec {
    return this.dec('sellAmount');
  }
  get sellAmountCc(): Dec | null {
    const f = this.sellAmountCcExact;
    if (f === null) return null;
    this.decs.sellAmountCc ??= fixedToDec(f);
    return this.decs.sellAmountCc;
  }
  get connectFee(): Dec {
    return this.dec('connectFee');
  }
  get networkFee(): Dec {
    return this.dec('networkFee');
  }
  get amountOut(): Dec {
    return this.dec('amountOut');
  }
  get amountOutNoFees(): Dec {
    return this.dec('amountOutNoFees');
  }
  /** plain data (JSON.stringify, test diffs): every field, as the interface lists them */
  toJSON(): Record<string, unknown> {
    const { mode, sell, buy, networkFeeSource, hops } = this;
    return {
      mode,
      sell,
      buy,
      sellAmount: this.sellAmount,
      sellAmountCc: this.sellAmountCc,
      connectFee: this.connectFee,
      networkFee: this.networkFee,
      networkFeeSource,
      hops,
      amountOut: this.amountOut,
      amountOutNoFees: this.amountOutNoFees,
    };
  }
}

/** The exact totals of a plan (kept for plans built here, else read from its Decs). */
export function computeSwapPlanExact(p: SwapPlan): SwapPlanExact {
  if (p instanceof ExactSwapPlan) return p.exact;
  return {
    sellAmount: toFx(p.sellAmount),
    amountOut: toFx(p.amountOut),
    amountOutNoFees: toFx(p.amountOutNoFees),
    networkFee: toFx(p.networkFee),
    connectFee: toFx(p.connectFee),
  };
}
