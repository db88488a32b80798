/**
 * Malformed pool entries (the issue "one bad pool must not hide the others"): /pools/proof,
 * /pools/state and /pools/info are read pool by pool (src/core/wire `parsePoolsProofPerPool`,
 * `parsePoolsStatePerPool`, `parsePoolsInfoPerPool`), and an entry without the documented shape — a reserve sent as a JSON
 * number, a negative or `1e400` amount, a blob that is not base64 — is set aside. Here each such
 * entry becomes that pool's error finding; the other pools are checked as usual. Tampering with one
 * entry therefore fails the audit (exit 1) instead of turning it into "could not check".
 */
import { type AuditCollector, makeFinding } from './finding.js';
import type { ProvenPool } from './proof-checks.js';
import type { MalformedEntry, StateEntry, TokenInfoEntry, TokenKey } from './snapshot.js';
import { computePoolPrice, computePoolTvlCc, type PoolReserves } from './state-checks.js';

const label = (m: MalformedEntry): string => (m.poolId === null ? `entry ${m.index}` : `pool ${m.poolId}`);

/** A non-base64 `created_event_blob` is the blob's finding; any other bad field the entry's. */
const isBlobPath = (path: string): boolean => /\.created_event_blob$/.test(path);

/** Checks `proof.entry`: one failed check per malformed /pools/proof entry. */
export function checkMalformedProofEntries(c: AuditCollector, entries: readonly MalformedEntry[]): void {
  for (const m of entries) {
    const evidence = { index: m.index, path: m.path, expected: m.expected, got: m.message };
    c.record('proof', 'proof.entry', m.poolId, [
      isBlobPath(m.path)
        ? makeFinding(
            'PROOF_BLOB_MALFORMED',
            m.poolId,
            `/pools/proof ${label(m)}: created_event_blob is not base64: ${m.message}`,
            evidence,
          )
        : makeFinding(
            'PROOF_ENTRY_MALFORMED',
            m.poolId,
            `/pools/proof ${label(m)} is malformed: ${m.message}`,
            evidence,
          ),
    ]);
  }
}

/** One failed check `name` per malformed entry of `endpoint`, with finding `code`. */
function checkMalformedEntries(
  c: AuditCollector,
  entries: readonly MalformedEntry[],
  name: string,
  code: 'STATE_ENTRY_MALFORMED' | 'INFO_ENTRY_MALFORMED',
  endpoint: string,
): void {
  for (const m of entries)
    c.record('state', name, m.poolId, [
      makeFinding(code, m.poolId, `${endpoint} ${label(m)} is malformed: ${m.message}`, {
        index: m.index,
        path: m.path,
        expected: m.expected,
        got: m.message,
      }),
    ]);
}

/** Checks `state.entry`: one failed check per malformed /pools/state entry. */
export function checkMalformedStateEntries(c: AuditCollector, entries: readonly MalformedEntry[]): void {
  checkMalformedEntries(c, entries, 'state.entry', 'STATE_ENTRY_MALFORMED', '/pools/state');
}

/** Checks `state.pools-info-entry`: one failed check per malformed /pools/info entry. */
export function checkMalformedInfoEntries(c: AuditCollector, entries: readonly MalformedEntry[]): void {
  checkMalformedEntries(c, entries, 'state.pools-info-entry', 'INFO_ENTRY_MALFORMED', '/pools/info');
}

/** The pool ids named by malformed entries (those whose pool id was readable). */
export function computeMalformedPools(entries: readonly MalformedEntry[]): Set<string> {
  return new Set(entries.flatMap((m) => (m.poolId === null ? [] : [m.poolId])));
}

/** A proven pool state standing in for an unreadable /pools/state entry (see `computeStandInStates`). */
export interface StandInState {
  readonly reserves: PoolReserves;
  readonly state: StateEntry;
}

/**
 * For each pool whose /pools/state entry was malformed but whose proof is proven: its proven state
 * stands in for the unreadable entry in the exchange-wide checks (markets, pairs, tickers, order
 * books, quotes, the /stats TVL), so the other pools are not judged against an exchange that seems
 * to lack a pool. The malformed entry itself is already that pool's finding; its own state checks
 * are not run. No stand-in when the proof is not proven or the token symbols, fee rate or CC token
 * are unknown.
 */
export function computeStandInStates(
  proven: ReadonlyMap<string, ProvenPool>,
  malformedStatePools: ReadonlySet<string>,
  tokens: readonly TokenInfoEntry[] | null,
  cc: TokenKey | null,
): StandInState[] {
  const out: StandInState[] = [];
  if (tokens === null || cc === null) return out;
  const symbolOf = (t: TokenKey): string | null =>
    tokens.find((x) => x.admin === t.admin && x.id === t.id)?.symbol ?? null;
  for (const id of malformedStatePools) {
    const p = proven.get(id);
    const f = p?.fields ?? null;
    if (p === undefined || p.status !== 'proven' || f === null || f.feeRate === null) continue;
    const tokenA = f.tokenA ?? p.entry.tokenA;
    const tokenB = f.tokenB ?? p.entry.tokenB;
    const [symA, symB] = [symbolOf(tokenA), symbolOf(tokenB)];
    const tvlCc = computePoolTvlCc(tokenA, tokenB, f.reserveA, f.reserveB, cc);
    if (symA === null || symB === null || tvlCc === null) continue;
    const symbol = `${symA}-${symB}`.toUpperCase();
    out.push({
      reserves: {
        poolId: id,
        tokenA,
        tokenB,
        reserveA: f.reserveA,
        reserveB: f.reserveB,
        feeRate: f.feeRate,
        symbol,
        label: 'proven',
        contractId: p.contractId,
      },
      state: {
        poolId: id,
        contractId: p.contractId,
        symbol,
        tokenA: { ...tokenA, symbol: symA },
        tokenB: { ...tokenB, symbol: symB },
        feeRate: f.feeRate,
        reserveA: f.reserveA,
        reserveB: f.reserveB,
        price: computePoolPrice(f.reserveA, f.reserveB),
        tvlCc,
      },
    });
  }
  return out;
}
