/**
 * What a Canton participant said about the reserve contracts (issue 26 "ledger-anchored assurance"):
 * the answers of the JSON Ledger API v2 (`/v2/events/events-by-contract-id`, `/v2/state/active-contracts`,
 * `/v2/updates`), already read and validated by src/io/ledger-api, as plain data the
 * pure ledger checks (./ledger-checks.ts) judge. A request that failed is recorded with its reason,
 * never as an answer (docs/findings.md "Soundness").
 */
import type { ReserveProof } from '../proof/reserve-proof.js';

/** What the participant said about one contract the exchange served. */
export type LedgerContractLookup =
  | {
      readonly kind: 'found';
      /** the created event's contract ID and blob (`createdEventBlob`, base64; null when not included) */
      readonly contractId: string;
      readonly createdEventBlob: string | null;
      readonly createdOffset: number;
      /** the archive event, when there is one: its offset and the archiving transaction's ledger time */
      readonly archived: {
        readonly offset: number;
        /** `effectiveAt` of the archiving transaction (ms); null when it could not be read */
        readonly effectiveAtMs: number | null;
        /** why the archive time is unknown */
        readonly reason: string | null;
      } | null;
    }
  | {
      /** CONTRACT_EVENTS_NOT_FOUND: unknown to the reading party, or pruned */
      readonly kind: 'not-found';
      /**
       * the reading party is a stakeholder of the served blob (its signatories ∪ observers); null when
       * the blob did not decode
       */
      readonly readerIsStakeholder: boolean | null;
      /** the participant's `participantPrunedUpToInclusive` (0: nothing pruned); null when unknown */
      readonly prunedUpTo: number | null;
      readonly message: string;
    }
  | { readonly kind: 'could-not-check'; readonly reason: string };

/** One active reserve contract the participant listed, with the proof step's result for its blob. */
export interface LedgerActiveReserve {
  readonly contractId: string;
  /** the offset of its creation (or last assignment) */
  readonly createdOffset: number;
  /** ledger time of its creation (`createdAt`), ms */
  readonly createdAtMs: number;
  /** the proof step on its `createdEventBlob` (which pool it is a reserve of) */
  readonly proof: ReserveProof | null;
}

export interface LedgerEvidence {
  /** the participant's JSON API root, as shown (credentials and query values redacted) */
  readonly participant: string;
  /** the party whose view was read */
  readonly party: string;
  /**
   * the ledger end read before the exchange was fetched: an event at or below it happened before
   * the fetch started, whatever the clocks say; null when it could not be read
   */
  readonly endBeforeFetch: number | null;
  /** per served contract ID */
  readonly contracts: ReadonlyMap<string, LedgerContractLookup>;
  /** the active reserve contracts at `offset` (the ledger end read just before), or why not */
  readonly active:
    | { readonly ok: true; readonly offset: number; readonly contracts: readonly LedgerActiveReserve[] }
    | { readonly ok: false; readonly reason: string };
}
