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
async function readJudgedOffsets(mirror: MirrorStore): Promise<Map<string, Map<string | null, number>>> {
  const out = new Map<string, Map<string | null, number>>();
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
    for (const j of judged as unknown[]) {
      const pool = field(j, 'pool');
      const through = field(j, 'through');
      if (typeof pool !== 'string' && pool !== null) continue;
      if (typeof through !== 'number' || !Number.isSafeInteger(through)) continue;
      pools.set(pool, through);
    }
    out.set(streamKey(participant, party), pools);
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
    // the follow offset first: every event at or below it is stored (a page is written with its offset),
    // so events a follower writes meanwhile are left for the next audit
    const events = (await mirror.readLedgerEvents(f, pools)).filter((e) => e.offset <= f.offset);
    streams.push({
      participant: f.participant,
      party: f.party,
      throughOffset: f.offset,
      judged: judged.get(streamKey(f.participant, f.party)) ?? new Map(),
      events,
    });
  }
  return { streams, verify: verifyOnce };
}
