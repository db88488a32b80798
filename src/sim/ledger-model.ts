/**
 * The in-memory view of the simulated ledger and its conversions from database rows
 * (api-decisions §3): a pool's current `PoolState` is its pool row + its latest reserve contract.
 * Also the small helpers every ledger change shares: update ids, creation times, next contract.
 */

import { formatAmount } from '../core/amm/format.js';
import type { PoolState, Token, TokenRef } from '../core/amm/types.js';
import { formatBase64, formatHex } from '../core/codec/bytes.js';
import type { Dec } from '../core/money/decimal.js';
import { ServerError } from '../errors/server.js';
import { type MintInput, mintReserveContract } from './mint.js';
import {
  RESERVE_ENTITY_NAME,
  RESERVE_MODULE_NAME,
  RESERVE_PACKAGE_ID,
  RESERVE_PACKAGE_NAME,
} from './reserve-template.js';
import type { SimRng } from './rng.js';
import type { PoolRow, ReserveContractRow } from './store/ledger-store.js';

export const tokenKey = (t: TokenRef): string => `${t.admin}\n${t.id}`;

/** A ledger update id: `1220` ‖ 64 hex of 32 random bytes (a SHA-256 multihash, like Canton's). */
export function mintUpdateId(rng: SimRng): string {
  return `1220${formatHex(rng.bytes(32))}`;
}

/** The pool's current state from its rows. */
export function toPoolState(
  pool: PoolRow,
  c: ReserveContractRow,
  tokens: ReadonlyMap<string, Token>,
): PoolState {
  const tokenA = tokens.get(`${pool.tokenAAdmin}\n${pool.tokenAId}`);
  const tokenB = tokens.get(`${pool.tokenBAdmin}\n${pool.tokenBId}`);
  if (tokenA === undefined || tokenB === undefined) {
    throw new ServerError(
      'DB_CORRUPT',
      `"pools.${pool.poolId}" expected known tokens, got ${pool.tokenAId}/${pool.tokenBId}`,
    );
  }
  return {
    poolId: pool.poolId,
    tokenA,
    tokenB,
    reserveA: c.reserveA,
    reserveB: c.reserveB,
    totalLpSupply: c.totalLpSupply,
    feeRate: c.feeRate,
    adminFeeShare: pool.adminFeeShare,
    active: pool.active,
    sequence: c.sequence,
    reserveContract: {
      contractId: c.contractId,
      updateId: c.updateId,
      createdAtMicros: c.createdAtMicros,
      createdEventBlob: formatBase64(c.blob),
      packageId: RESERVE_PACKAGE_ID,
      packageName: RESERVE_PACKAGE_NAME,
      moduleName: RESERVE_MODULE_NAME,
      entityName: RESERVE_ENTITY_NAME,
    },
  };
}

export interface NextReserve {
  readonly row: Omit<ReserveContractRow, 'archivedBy'>;
  readonly state: PoolState;
}

/** The mint's own inputs (version, creation time, rng, sha256, context, observers) pass through unchanged. */
export interface NextReserveInput extends Omit<MintInput, 'fields'> {
  /** the pool before the change; null `previous` for a pool's first contract */
  readonly pool: Omit<PoolState, 'reserveContract' | 'sequence'> & {
    readonly reserveContract: PoolState['reserveContract'] | null;
    readonly sequence: bigint | null;
  };
  readonly reserveA: Dec | string;
  readonly reserveB: Dec | string;
  readonly totalLpSupply: Dec | string;
  readonly operator: string;
  readonly updateId: string;
}

/**
 * Mints the pool's next reserve contract: sequence + 1 (0 for the first), previous = the current
 * contract's ID. Amounts are rendered with exactly 10 decimals.
 */
export function mintNextReserve(x: NextReserveInput): NextReserve {
  const prev = x.pool.reserveContract;
  const sequence = x.pool.sequence === null ? 0n : x.pool.sequence + 1n;
  const reserveA = formatAmount(x.reserveA);
  const reserveB = formatAmount(x.reserveB);
  const totalLpSupply = formatAmount(x.totalLpSupply);
  const feeRate = formatAmount(x.pool.feeRate);
  const minted = mintReserveContract({
    fields: {
      operator: x.operator,
      poolId: x.pool.poolId,
      tokenA: { admin: x.pool.tokenA.admin, id: x.pool.tokenA.id },
      tokenB: { admin: x.pool.tokenB.admin, id: x.pool.tokenB.id },
      reserveA,
      reserveB,
      totalLpSupply,
      feeRate,
      sequence,
      previous: prev === null ? null : hexToBytes(prev.contractId),
    },
    version: x.version,
    createdAtMicros: x.createdAtMicros,
    rng: x.rng,
    sha256: x.sha256,
    context: x.context,
    ...(x.observers === undefined ? {} : { observers: x.observers }),
  });
  const row: Omit<ReserveContractRow, 'archivedBy'> = {
    contractId: minted.contractId,
    poolId: x.pool.poolId,
    sequence,
    previous: prev?.contractId ?? null,
    idVersion: x.version,
    updateId: x.updateId,
    createdAtMicros: x.createdAtMicros,
    reserveA,
    reserveB,
    totalLpSupply,
    feeRate,
    blob: minted.blob,
  };
  const state: PoolState = {
    ...x.pool,
    reserveA,
    reserveB,
    totalLpSupply,
    feeRate,
    sequence,
    reserveContract: {
      contractId: minted.contractId,
      updateId: x.updateId,
      createdAtMicros: x.createdAtMicros,
      createdEventBlob: formatBase64(minted.blob),
      packageId: RESERVE_PACKAGE_ID,
      packageName: RESERVE_PACKAGE_NAME,
      moduleName: RESERVE_MODULE_NAME,
      entityName: RESERVE_ENTITY_NAME,
    },
  };
  return { row, state };
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
