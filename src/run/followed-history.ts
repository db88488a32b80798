/**
 * What `audit --mirror` reads of the followed ledger (issue 26 "history from the ledger"; docs/findings.md
 * "History"): every (participant, party) the mirror follows (`mirror follow`, `snapshot --ledger-api`),
 * each with the audited pools' followed events up to the offset it was followed to, and the offset the
 * last audit run recorded in the mirror judged it through (its `summary.coverage.followed`), so each
 * finding is reported by one audit only (docs/decisions/audit.md "Followed history"). The checks are
 * pure (src/core/audit/followed-history-checks.ts); this file only reads.
 */
import type { FollowedHistory, FollowedStream } from '../core/audit/followed-history-checks.js';
import type { ReserveProof } from '../core/proof/reserve-proof.js';
import type { MirrorStore } from '../io/store/index.js';

/** `participant` + NUL + `party`: one followed stream. */
const streamKey = (participant: unknown, party: unknown): string =>
  `${String(participant)}\u0000${String(party)}`;

/**
 * The offsets the last recorded audit run judged each stream through (`summary.coverage.followed.streams`
 * of the newest `audit_runs` row); empty when it judged none or the mirror holds no run.
 */
async function readJudgedOffsets(mirror: MirrorStore): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const last = (await mirror.readAuditRuns({ limit: 1 }))[0];
  const coverage = last?.summary.coverage;
  if (typeof coverage !== 'object' || coverage === null) return out;
  const followed = (coverage as Record<string, unknown>).followed;
  if (typeof followed !== 'object' || followed === null) return out;
  const streams = (followed as Record<string, unknown>).streams;
  if (!Array.isArray(streams)) return out;
  for (const s of streams as unknown[]) {
    if (typeof s !== 'object' || s === null) continue;
    const r = s as Record<string, unknown>;
    if (typeof r.participant !== 'string' || typeof r.party !== 'string') continue;
    if (typeof r.throughOffset !== 'number' || !Number.isSafeInteger(r.throughOffset)) continue;
    out.set(streamKey(r.participant, r.party), r.throughOffset);
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
      judgedThrough: judged.get(streamKey(f.participant, f.party)) ?? null,
      events,
    });
  }
  return { streams, verify: verifyOnce };
}
