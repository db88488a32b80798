/**
 * Replay's history points (the issue "replay"): the observations of the period, read by contract
 * row key (the store's `iterateObservationKeyPages`), joined with the
 * contracts this replay proved — by key for the batches that carried their keys, by contract ID
 * for distributed replay's results. Only observations of contracts not proven here are resolved to
 * their contract's ID and ledger time, in one `readContractsByKey`. The points are exactly those of
 * reading every observation with its contract ID and matching by ID (test/audit/replay-observations).
 */
import type { HistoryPoint } from '../core/audit/index.js';
import { parseTimestampMicros } from '../core/wire/timestamp.js';
import type { MirrorStore, ObservationKeyRow } from '../io/store/index.js';
import type { ReplayedContract } from './replay-contract.js';

/**
 * What replay re-verified and proven: by contract row key for batches that carried their keys
 * (this process's reads), else by contract ID (distributed replay's results).
 */
export interface ReplayedContracts {
  readonly byKey: Map<number, { readonly contractId: string; readonly proven: ReplayedContract }>;
  readonly byId: Map<string, ReplayedContract>;
}

/** An observation row as a history point, with its contract's ID and, when proven, its blob's values. */
function toHistoryPoint(
  r: ObservationKeyRow,
  contractId: string | null,
  k: ReplayedContract | undefined,
  contractLedgerCreatedAt: string | null,
): HistoryPoint {
  const at = r[3] ?? contractLedgerCreatedAt;
  return {
    observedAtMs: r[1],
    contractId,
    ledgerCreatedAtMicros: k?.createdAtMicros ?? (at === null ? null : parseTimestampMicros(at)),
    reserveA: k?.reserveA ?? r[4],
    reserveB: k?.reserveB ?? r[5],
    totalLpSupply: k?.totalLpSupply ?? r[6],
    proven: k !== undefined,
    template: k?.template ?? null,
    blobKey: null,
  };
}

/**
 * The observations of the period as history points, per pool, oldest first (one streaming read
 * of the observations by contract key); a point is `proven` when its contract was re-verified
 * above, and then carries the blob's values. Only observations of contracts not proven here are
 * resolved to their contract's ID (and omitted ledger time) afterwards, in one lookup.
 */
export async function loadObservationSeries(
  mirror: MirrorStore,
  fromMs: number | undefined,
  toMs: number | undefined,
  replayed: ReplayedContracts,
): Promise<Map<string, HistoryPoint[]>> {
  const out = new Map<string, HistoryPoint[]>();
  const pending: { list: HistoryPoint[]; at: number; row: ObservationKeyRow; key: number }[] = [];
  let list: HistoryPoint[] = [];
  let listPool: string | null = null;
  for await (const page of mirror.iterateObservationKeyPages({ fromMs, toMs })) {
    for (const r of page) {
      if (r[0] !== listPool) {
        listPool = r[0];
        const known = out.get(listPool);
        list = known ?? [];
        if (known === undefined) out.set(listPool, list);
      }
      const key = r[2];
      const k = key === null ? undefined : replayed.byKey.get(key);
      if (key === null) list.push(toHistoryPoint(r, null, undefined, null));
      else if (k !== undefined) list.push(toHistoryPoint(r, k.contractId, k.proven, null));
      else {
        pending.push({ list, at: list.length, row: r, key });
        list.push(toHistoryPoint(r, null, undefined, null));
      }
    }
  }
  if (pending.length > 0) {
    const ids = await mirror.readContractsByKey([...new Set(pending.map((p) => p.key))]);
    for (const p of pending) {
      const c = ids.get(p.key);
      p.list[p.at] = toHistoryPoint(
        p.row,
        c?.contractId ?? null,
        c === undefined ? undefined : replayed.byId.get(c.contractId),
        c?.ledgerCreatedAt ?? null,
      );
    }
  }
  return out;
}
