/**
 * What `audit --mirror` reads of the followed ledger (issue 26 "history from the ledger"; docs/findings.md
 * "Followed history"): every (participant, party) the mirror follows (`mirror follow`, `snapshot
 * --ledger-api`), each with the audited pools' followed events up to the offset it was followed to, and
 * per pool the offset the audits recorded in the mirror judged it through (the last run's
 * `summary.coverage.followed`), so each finding is reported by one audit only (docs/decisions/audit.md
 * "Followed history in the audit"). The checks are pure (src/core/audit/followed-history-checks.ts);
 * this file only reads.
 */
import type { FollowedHistory, FollowedStream } from '../core/audit/followed-history-checks.js';
import type { ReserveProof } from '../core/proof/reserve-proof.js';
import type { MirrorStore } from '../io/store/index.js';

/** `participant` + NUL + `party`: one followed stream. */
const streamKey = (participant: unknown, party: unknown): string =>
  `${String(participant)}\u0000${String(party)}`;

/**
 * Per stream, the offsets the last recorded audit run left each pool judged through
 * (`summary.coverage.followed.streams[].judged` of the newest `audit_runs` row, which carries forward
 * the pools it did not judge); empty when it judged none or the mirror holds no run. A malformed entry
 * is skipped: its pool counts as never judged, so its findings are reported again rather than lost.
 */
interface Judged {
  readonly through: Map<string | null, number>;
  readonly contracts: Map<string, number>;
}

async function readJudgedOffsets(mirror: MirrorStore): Promise<Map<string, Judged>> {
  const out = new Map<string, Judged>();
  const last = (await mirror.readAuditRuns({ limit: 1 }))[0];
  const field = (o: unknown, name: string): unknown =>
    typeof o === 'object' && o !== null && !Array.isArray(o)
      ? (o as Record<string, unknown>)[name]
      : undefined;
  const streams = field(field(last?.summary.coverage, 'followed'), 'streams');
  if (!Array.isArray(streams)) return out;
  for (const s of streams as unknown[]) {
    const participant = field(s, 'participant');
    const party = field(s, 'party');
    const judged = field(s, 'judged');
    if (typeof participant !== 'string' || typeof party !== 'string' || !Array.isArray(judged)) continue;
    const pools = new Map<string | null, number>();
    const contracts = new Map<string, number>();
    for (const j of judged as unknown[]) {
      const pool = field(j, 'pool');
      const through = field(j, 'through');
      const count = field(j, 'contracts');
      if (typeof pool !== 'string' && pool !== null) continue;
      if (typeof through !== 'number' || !Number.isSafeInteger(through)) continue;
      pools.set(pool, through);
      if (pool !== null && typeof count === 'number' && Number.isSafeInteger(count) && count >= 0)
        contracts.set(pool, count);
    }
    out.set(streamKey(participant, party), { through: pools, contracts });
  }
  return out;
}

/**
 * Reads the followed history of `pools` (read BEFORE the audit run is recorded). `verify` is the proof
 * step over a followed blob; each contract is verified once however often the checks ask.
 */
export async function loadFollowedHistory(
  mirror: MirrorStore,
  pools: readonly string[],
  verify: (contractId: string, blob: Uint8Array) => ReserveProof,
): Promise<FollowedHistory> {
  const proofs = new Map<string, { readonly blob: Uint8Array; readonly proof: ReserveProof }>();
  const verifyOnce = (contractId: string, blob: Uint8Array): ReserveProof => {
    const hit = proofs.get(contractId);
    if (hit !== undefined && Buffer.from(hit.blob).equals(blob)) return hit.proof;
    const proof = verify(contractId, blob);
    proofs.set(contractId, { blob, proof });
    return proof;
  };
  const followed = await mirror.readLedgerFollowStreams();
  if (followed.length === 0) return { streams: [], verify: verifyOnce };
  const judged = await readJudgedOffsets(mirror);
  const streams: FollowedStream[] = [];
  for (const f of followed) {
    const j = judged.get(streamKey(f.participant, f.party)) ?? { through: new Map(), contracts: new Map() };
    // each pool from its seed at the offset it was judged through (pools judged alike read together;
    // a pool whose count is unknown is read from the start, so its count is whole again)
    const groups = new Map<number, string[]>();
    for (const pool of pools) {
      const through = j.contracts.has(pool) ? (j.through.get(pool) ?? 0) : 0;
      groups.set(through, [...(groups.get(through) ?? []), pool]);
    }
    const byPosition = new Map<string, FollowedStream['events'][number]>();
    for (const [after, group] of groups) {
      const rows = await mirror.readLedgerEvents(f, group, after > 0 ? after : undefined);
      // the follow offset first: every event at or below it is stored (a page is written with its
      // offset), so events a follower writes meanwhile are left for the next audit
      for (const e of rows) if (e.offset <= f.offset) byPosition.set(`${e.offset}/${e.nodeSeq}`, e);
    }
    const events = [...byPosition.values()].sort((a, b) => a.offset - b.offset || a.nodeSeq - b.nodeSeq);
    streams.push({
      participant: f.participant,
      party: f.party,
      throughOffset: f.offset,
      judged: j.through,
      judgedContracts: j.contracts,
      events,
    });
  }
  return { streams, verify: verifyOnce };
}
