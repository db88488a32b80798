/**
 * Synthetic ApiSnapshots for the mirror tests (offline, fast): proofs and state for N pools,
 * the other sections marked not fetched, and raw responses whose bodies are the JSON of the
 * proof/state sections (so identical sections give identical digests).
 */
import { createHash } from 'node:crypto';
import type {
  ApiSnapshot,
  PoolProofInfo,
  PoolStateInfo,
  PoolsProofResponse,
  RawResponse,
} from '../../src/core/wire/index.js';
import { formatApiTimestamp } from '../../src/core/wire/index.js';
import type { ContractVerificationInput } from '../../src/io/store/index.js';

export interface FixturePool {
  readonly poolId: string;
  readonly contractId: string;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly lp?: string;
  readonly createdAtMs: number;
  readonly blob?: string;
}

const CC = {
  id: 'Amulet',
  admin: 'DSO::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc',
};

/** A 69-byte V1-shaped contract ID (hex) derived from a number. */
/** A verified verification of a fixture pool's contract: its reserves, LP supply and creation time as decoded. */
export function verifiedInputOf(p: FixturePool): ContractVerificationInput {
  return {
    status: 'verified',
    decoded: {
      reserveA: p.reserveA,
      reserveB: p.reserveB,
      totalLpSupply: p.lp ?? '1000.0000000000',
      createdAtMicros: BigInt(p.createdAtMs) * 1000n,
    },
  };
}

export function fixtureContractId(n: number): string {
  const h = createHash('sha256').update(`cid-${n}`).digest('hex');
  return `00${h}ca1220${createHash('sha256').update(`sfx-${n}`).digest('hex')}`;
}

function raw(url: string, body: unknown, startedAtMs: number): RawResponse {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return {
    method: 'GET',
    url,
    requestBody: null,
    status: 200,
    contentType: 'application/json; charset=utf-8',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    body: bytes,
    startedAtMs,
    durationMs: 1,
  };
}

const NOT_FETCHED = { ok: false, reason: 'not fetched in this fixture', code: 'FIXTURE' } as const;

export function makeSnapshot(
  startedAtMs: number,
  pools: readonly FixturePool[],
  base = 'http://127.0.0.1:1/v1/public',
): ApiSnapshot {
  const updatedAt = formatApiTimestamp(startedAtMs);
  const proofPools: PoolProofInfo[] = pools.map((p) => ({
    pool_id: p.poolId,
    pool_cid: `pool-${p.poolId}`,
    token_a_instrument: { id: `T${p.poolId}`, admin: 'issuer::1220aa' },
    token_b_instrument: { id: CC.id, admin: CC.admin },
    reserve_contract: {
      contract_id: p.contractId,
      update_id: `1220${p.contractId.slice(2, 66)}`,
      template: {
        package_id: 'ab'.repeat(32),
        package_name: 'amm-pools',
        module_name: 'Amm.Pool',
        entity_name: 'PoolReserve',
      },
      ledger_created_at: formatApiTimestamp(p.createdAtMs),
      created_event_blob: p.blob ?? Buffer.from(`blob:${p.contractId}`).toString('base64'),
      reserve_a: p.reserveA,
      reserve_b: p.reserveB,
      total_lp_supply: p.lp ?? '1000.0000000000',
    },
  }));
  const statePools: PoolStateInfo[] = pools.map((p) => ({
    pool_id: p.poolId,
    contract_id: p.contractId,
    symbol: `T${p.poolId}-CC`,
    token_a_instrument: { id: `T${p.poolId}`, admin: 'issuer::1220aa', symbol: `T${p.poolId}` },
    token_b_instrument: { id: CC.id, admin: CC.admin, symbol: 'CC' },
    fee_rate: '0.0030000000',
    reserve_a: p.reserveA,
    reserve_b: p.reserveB,
    price: '1.0000000000',
    tvl_cc: '2.0000000000',
  }));
  const proofs: PoolsProofResponse = { data: { updated_at: updatedAt, pools: proofPools } };
  const state = { data: { updated_at: updatedAt, pools: statePools } };
  return {
    baseUrl: base,
    startedAtMs,
    finishedAtMs: startedAtMs + 10,
    tokens: NOT_FETCHED,
    swapInfo: NOT_FETCHED,
    markets: NOT_FETCHED,
    exchangeInfo: NOT_FETCHED,
    poolsInfo: NOT_FETCHED,
    proofsBefore: { ok: true, value: proofs },
    poolsState: { ok: true, value: state },
    proofsAfter: { ok: true, value: proofs },
    stats: NOT_FETCHED,
    volume: NOT_FETCHED,
    aggregatorPairs: NOT_FETCHED,
    aggregatorTickers: NOT_FETCHED,
    orderbooks: NOT_FETCHED,
    probeQuotes: null,
    raw: [
      raw(`${base}/pools/proof`, proofs, startedAtMs),
      raw(`${base}/pools/state`, state, startedAtMs + 1),
      raw(`${base}/pools/proof`, proofs, startedAtMs + 2),
    ],
  };
}
