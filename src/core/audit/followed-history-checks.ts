/**
 * The history of the followed ledger in an audit (issue 26 "history from the ledger"; docs/findings.md
 * "History", "Reserve chain"): when the audited mirror holds the reserve contracts' created and
 * archived events a participant's update stream reported (`mirror follow`, `snapshot --ledger-api`),
 * `audit --mirror` judges them as well as its sampled snapshots:
 *
 * - the series check of the snapshot history (`checkHistorySeries`, the one implementation: time never
 *   goes back, no ID reuse, the LP-share value never decreases, no template change) runs over each
 *   audited pool's followed contracts in stream order — every contract, not samples, so a pool drained
 *   and refilled between two audits shows its drain. A point's reserves and LP supply come from its blob
 *   through the proof step; a contract whose ID does not recompute is no point (the chain check names it);
 * - the chain check (`checkReserveChains`) over the same events, for the audited pools.
 *
 * Each finding is reported once: a stream carries, per pool, the offset earlier audits of the mirror
 * judged that pool through (`judged`), and only findings of later events are reported — earlier events
 * only build up the fold and the chain. The offsets are per pool, carried forward for pools an audit did
 * not judge (absent from `/pools/proof`, or no proof fetched at all), so an exchange cannot make a drain
 * pass unjudged by hiding the pool or failing `/pools/proof` for one audit (docs/decisions/audit.md
 * "Followed history in the audit"). Pure: the events and the proof step are passed in.
 */
import type { ReserveProof } from '../proof/reserve-proof.js';
import type { AuditCollector, Finding } from './finding.js';
import { checkHistorySeries, type HistoryPoint } from './history-checks.js';
import { checkReserveChains, type FollowedReserveEvent } from './reserve-chain-checks.js';

/** A followed event as the audit reads it: the chain check's event and its transaction's ledger time. */
export interface FollowedAuditEvent extends FollowedReserveEvent {
  /** the transaction's ledger time (`effectiveAt`), ms */
  readonly ledgerTimeMs: number;
}

/** What the mirror holds of one followed (participant, party). */
export interface FollowedStream {
  /** the participant's URL as shown (no credentials) and the reading party */
  readonly participant: string;
  readonly party: string;
  /** every event of the stream at or below this offset is in `events` (the mirror's follow offset) */
  readonly throughOffset: number;
  /**
   * pool → the offset earlier audits of the mirror judged its events through (null: the events of no
   * pool); a pool absent was never judged
   */
  readonly judged: ReadonlyMap<string | null, number>;
  /**
   * pool → how many of its followed contracts earlier audits judged (through its `judged` offset);
   * absent: none. The events need not go back further than each pool's last contract at or below
   * its judged offset (its seed: the chain and the fold continue from it), so an audit reads what is
   * new, not the whole history, and the count of every contract is carried from audit to audit
   */
  readonly judgedContracts?: ReadonlyMap<string, number>;
  /**
   * the audited pools' events (each from its seed, or from the start) and every created event not
   * placed in a pool, in stream order (offset, then position in the transaction), none after
   * `throughOffset`
   */
  readonly events: readonly FollowedAuditEvent[];
}

export interface FollowedHistory {
  readonly streams: readonly FollowedStream[];
  /** THE proof step over a followed blob (`verifyReserveProof` with the run's profile and types) */
  readonly verify: (contractId: string, blob: Uint8Array) => ReserveProof;
}

/** What the followed history covered, per stream (the report's coverage line, `summary.coverage.followed`). */
export interface FollowedStreamCoverage {
  readonly participant: string;
  readonly party: string;
  /** the offset every event is read up to */
  readonly throughOffset: number;
  /**
   * followed contracts of the audited pools whose ID recomputed — the points of the series, the ones
   * earlier audits judged included
   */
  readonly contracts: number;
  /** of those, the contracts no earlier audit judged (their findings are this audit's) */
  readonly newContracts: number;
  /**
   * per pool (null: the events of no pool), the offset its events are judged through after this
   * audit: `throughOffset` for the audited pools, the earlier offset carried for the others; the next
   * audit reports findings of later events only
   */
  readonly judged: readonly {
    readonly pool: string | null;
    readonly through: number;
    /** the pool's followed contracts judged through `through` (absent for the events of no pool) */
    readonly contracts?: number;
  }[];
  /** audited pools with at least one followed contract */
  readonly pools: number;
}

/** Pool order of the records and the judged list: null (no pool) first, then by code point. */
const comparePools = (a: string | null, b: string | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;

/** The template key of a proof, as the snapshot history writes it. */
function templateKeyOf(p: ReserveProof): string | null {
  const t = p.template;
  return t === null ? null : `${t.packageId}:${t.packageName}:${t.moduleName}:${t.entityName}`;
}

/** Adds the stream and the offsets of the contracts a finding names to its evidence and message. */
function annotateFollowed(s: FollowedStream, offsetOf: ReadonlyMap<string, number>): (f: Finding) => Finding {
  return (f) => {
    const id = typeof f.evidence.contractId === 'string' ? f.evidence.contractId : null;
    const prev = typeof f.evidence.previousContractId === 'string' ? f.evidence.previousContractId : null;
    const offset = id === null ? undefined : offsetOf.get(id);
    const previousOffset = prev === null ? undefined : offsetOf.get(prev);
    const where = [
      ...(prev === null || previousOffset === undefined ? [] : [`${prev} at offset ${previousOffset}`]),
      ...(id === null || offset === undefined ? [] : [`${id} at offset ${offset}`]),
    ];
    return {
      ...f,
      message: `${f.message} (followed ledger of ${s.party} at ${s.participant}: ${where.join(' → ')})`,
      evidence: {
        ...f.evidence,
        source: 'followed-ledger',
        participant: s.participant,
        party: s.party,
        ...(offset === undefined ? {} : { offset }),
        ...(previousOffset === undefined ? {} : { previousOffset }),
      },
    };
  };
}

/**
 * Checks the followed history of the audited `pools` (see the module comment); records `ledger.chain`
 * and `history.followed.*` per pool with followed contracts, and returns what was covered.
 */
export function checkFollowedHistory(
  c: AuditCollector,
  pools: ReadonlySet<string>,
  h: FollowedHistory,
  options: { readonly lpShareTolerance?: string } = {},
): FollowedStreamCoverage[] {
  const out: FollowedStreamCoverage[] = [];
  for (const s of h.streams) {
    const judgedOf = (pool: string | null): number => s.judged.get(pool) ?? 0;
    const isNew = (pool: string | null, offset: unknown): boolean =>
      typeof offset !== 'number' || offset > judgedOf(pool);
    // 1. the chain, over every event read (its state needs the old events too)
    const chain = checkReserveChains({ events: s.events, verify: h.verify });
    const chainOf = new Map<string | null, Finding[]>();
    for (const f of chain.findings) {
      if ((f.pool !== null && !pools.has(f.pool)) || !isNew(f.pool, f.evidence.offset)) continue;
      const g: Finding = { ...f, evidence: { ...f.evidence, participant: s.participant, party: s.party } };
      chainOf.set(f.pool, [...(chainOf.get(f.pool) ?? []), g]);
    }
    // 2. the series: each audited pool's followed contracts whose ID recomputes, in stream order
    const series = new Map<string, { points: HistoryPoint[]; offsets: number[] }>();
    const offsetOf = new Map<string, number>();
    for (const e of s.events) {
      if (e.kind !== 'created' || e.createdEventBlob === null) continue;
      offsetOf.set(e.contractId, e.offset);
      const p = h.verify(e.contractId, e.createdEventBlob);
      const fields = p.provenFields;
      if (p.status !== 'proven' || fields === null || fields.poolId === null || !pools.has(fields.poolId))
        continue;
      const list = series.get(fields.poolId) ?? { points: [], offsets: [] };
      list.points.push({
        observedAtMs: e.ledgerTimeMs,
        contractId: e.contractId,
        ledgerCreatedAtMicros: p.createdAtMicros,
        reserveA: fields.reserveA,
        reserveB: fields.reserveB,
        totalLpSupply: fields.totalLpSupply,
        proven: true,
        template: templateKeyOf(p),
        blobKey: null,
      });
      list.offsets.push(e.offset);
      series.set(fields.poolId, list);
    }
    let contracts = 0;
    let newContracts = 0;
    const carried = (pool: string): number | undefined => s.judgedContracts?.get(pool);
    const countAfter = new Map<string, number>();
    const annotate = annotateFollowed(s, offsetOf);
    const checked = new Set<string | null>([...series.keys(), ...chainOf.keys()]);
    for (const pool of [...checked].sort(comparePools)) {
      c.record('ledger', 'ledger.chain', pool, chainOf.get(pool) ?? []);
      const list = pool === null ? undefined : series.get(pool);
      if (pool === null || list === undefined) continue;
      const reportFrom = list.offsets.findIndex((o) => o > judgedOf(pool));
      const from = reportFrom < 0 ? list.points.length : reportFrom;
      // the points before `from` were judged by earlier audits: counted by them when they said how
      // many (the events then start at the pool's seed), else counted here (read from the start)
      const before = carried(pool);
      const count = before === undefined ? list.points.length : before + list.points.length - from;
      countAfter.set(pool, count);
      contracts += count;
      newContracts += list.points.length - from;
      checkHistorySeries(c, pool, list.points, from, {
        checkPrefix: 'history.followed',
        annotate,
        ...(options.lpShareTolerance === undefined ? {} : { lpShareTolerance: options.lpShareTolerance }),
      });
    }
    // judged after this audit: its pools through the offset read, the others as they were
    const after = new Map(s.judged);
    if (pools.size > 0) after.set(null, s.throughOffset);
    for (const pool of pools) after.set(pool, s.throughOffset);
    const countOf = (pool: string): number => countAfter.get(pool) ?? carried(pool) ?? 0;
    out.push({
      participant: s.participant,
      party: s.party,
      throughOffset: s.throughOffset,
      contracts,
      newContracts,
      pools: series.size,
      judged: [...after]
        .sort(([a], [b]) => comparePools(a, b))
        .map(([pool, through]) =>
          pool === null ? { pool, through } : { pool, through, contracts: countOf(pool) },
        ),
    });
  }
  return out;
}
