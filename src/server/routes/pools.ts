/**
 * GET /pools/info, /pools/state, /pools/proof (docs/protocol/public-api.md "Pool", "Pool state",
 * "Pool proof"; api-decisions §2, §3). All three are built from one pool snapshot per 5-second window, so a
 * proof's decoded reserves equal /pools/state served in the same window. Only active pools appear.
 *
 * `pool_cid` (meaning not shown by the spec) is the pool's current contract: the same ID as
 * /pools/info `contract_id` and `reserve_contract.contract_id` — in this exchange a pool IS its
 * latest reserve contract (docs/decisions/server.md).
 */
import { formatAmount } from '../../core/amm/format.js';
import { computeMidPrice, computeTvlCc } from '../../core/amm/swap-math.js';
import type { PoolState } from '../../core/amm/types.js';
import type { PoolProofInfo, PoolStateInfo, PoolsInfoResponse } from '../../core/wire/index.js';
import { formatApiTimestamp, formatApiTimestampMicros } from '../../core/wire/timestamp.js';
import type { RouteDeps } from '../deps.js';
import type { Reply } from '../http.js';
import { CACHE_SECONDS, cachedJson, poolSnapshot, poolSymbol } from './common.js';

export function poolsInfo(deps: RouteDeps): Reply {
  return cachedJson(
    deps,
    'pools-info',
    CACHE_SECONDS.pools,
    (): PoolsInfoResponse => ({
      pools: poolSnapshot(deps).pools.map((p) => ({
        contract_id: p.reserveContract.contractId,
        pool_id: p.poolId,
        token_a_instrument_id: p.tokenA.id,
        token_a_instrument_admin: p.tokenA.admin,
        token_b_instrument_id: p.tokenB.id,
        token_b_instrument_admin: p.tokenB.admin,
        fee_rate: formatAmount(p.feeRate),
        admin_fee_share: formatAmount(p.adminFeeShare),
      })),
    }),
  );
}

function poolStateEntry(p: PoolState, deps: RouteDeps): PoolStateInfo {
  const price = computeMidPrice(p);
  return {
    pool_id: p.poolId,
    contract_id: p.reserveContract.contractId,
    symbol: poolSymbol(p),
    token_a_instrument: { id: p.tokenA.id, admin: p.tokenA.admin, symbol: p.tokenA.symbol },
    token_b_instrument: { id: p.tokenB.id, admin: p.tokenB.admin, symbol: p.tokenB.symbol },
    fee_rate: formatAmount(p.feeRate),
    reserve_a: formatAmount(p.reserveA),
    reserve_b: formatAmount(p.reserveB),
    price: price === null ? null : formatAmount(price),
    tvl_cc: formatAmount(computeTvlCc(p, deps.exchange.cc())),
  };
}

/** A body of the window's pool snapshot, `{data: {updated_at, pools}}` (/pools/state, /pools/proof): an entry per pool. */
function poolSnapshotReply<T>(deps: RouteDeps, key: string, entry: (p: PoolState) => T): Reply {
  return cachedJson(deps, key, CACHE_SECONDS.pools, () => {
    const snap = poolSnapshot(deps);
    return { data: { updated_at: formatApiTimestamp(snap.atMs), pools: snap.pools.map(entry) } };
  });
}

export function poolsState(deps: RouteDeps): Reply {
  return poolSnapshotReply(deps, 'pools-state', (p): PoolStateInfo => poolStateEntry(p, deps));
}

export function poolsProof(deps: RouteDeps): Reply {
  return poolSnapshotReply(deps, 'pools-proof', (p): PoolProofInfo => {
    const rc = p.reserveContract;
    return {
      pool_id: p.poolId,
      pool_cid: rc.contractId,
      token_a_instrument: { id: p.tokenA.id, admin: p.tokenA.admin },
      token_b_instrument: { id: p.tokenB.id, admin: p.tokenB.admin },
      reserve_contract: {
        contract_id: rc.contractId,
        update_id: rc.updateId,
        template: {
          package_id: rc.packageId,
          package_name: rc.packageName,
          module_name: rc.moduleName,
          entity_name: rc.entityName,
        },
        ledger_created_at: formatApiTimestampMicros(rc.createdAtMicros),
        created_event_blob: rc.createdEventBlob,
        reserve_a: formatAmount(p.reserveA),
        reserve_b: formatAmount(p.reserveB),
        total_lp_supply: formatAmount(p.totalLpSupply),
      },
    };
  });
}
