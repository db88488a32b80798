/** The auditor's ledger edge (issue 26): the JSON Ledger API v2 client and the reads of the ledger checks. */
export { createLedgerClient, type LedgerAnswer, type LedgerClient } from './ledger-client.js';
export {
  readLedgerEvidence,
  readReserveUpdatePage,
  startActiveReserveRead,
} from './read-ledger.js';
