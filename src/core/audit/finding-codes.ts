/**
 * The catalogue of audit finding codes (the issue "reserve-audit audit"; documented in
 * docs/findings.md — a test keeps the two in step). Codes are stable: never renamed once released.
 *
 * `label` is the default provenance of the statement: `proven` when the expected value comes from
 * the blob the exchange served, whose contract ID recomputed (the discrepancy is proven; whether the
 * contract exists on the ledger is the assurance level, ./assurance.ts), `asserted` when both sides are only the exchange's word,
 * `could-not-check` when the check could not be performed.
 */
import type { AuditArea, FindingLabel, Severity } from './finding-kinds.js';

export interface FindingCodeDef {
  readonly severity: Severity;
  readonly area: AuditArea;
  readonly label: FindingLabel;
  /** one line: what the finding means */
  readonly title: string;
}

const def = (severity: Severity, area: AuditArea, label: FindingLabel, title: string): FindingCodeDef => ({
  severity,
  area,
  label,
  title,
});

export const FINDING_CODES = {
  // fetching
  FETCH_FAILED: def(
    'warning',
    'fetch',
    'could-not-check',
    'an endpoint could not be fetched or its response was not the documented shape',
  ),
  NOTHING_TO_AUDIT: def(
    'warning',
    'fetch',
    'could-not-check',
    'the exchange published no pools and no proofs: there was nothing to check',
  ),
  IDENTIFIER_CONTROL_CHARACTERS: def(
    'warning',
    'fetch',
    'asserted',
    'an identifier or symbol the exchange published holds control or bidirectional-control characters (shown escaped)',
  ),
  // proofs
  PROOF_CONTRACT_ID_MISMATCH: def(
    'error',
    'proof',
    'proven',
    'the contract ID does not recompute from the blob, or the published ID differs from the ID embedded in the blob',
  ),
  PROOF_FIELD_MISMATCH: def(
    'error',
    'proof',
    'proven',
    'a JSON field of the proof (reserves, LP supply, ledger_created_at, template, tokens, pool) differs from the blob',
  ),
  PROOF_UNVERIFIABLE: def(
    'warning',
    'proof',
    'could-not-check',
    'the proof could not be verified (unsupported ID version, missing types, unreadable fields)',
  ),
  PROOF_BLOB_MALFORMED: def(
    'error',
    'proof',
    'proven',
    'the created_event_blob is not valid base64 or does not decode as a created event',
  ),
  PROOF_ENTRY_MALFORMED: def(
    'error',
    'proof',
    'asserted',
    'a /pools/proof entry does not have the documented shape (a reserve as a JSON number, a negative or exponent amount, a missing field, …); the other pools are still verified',
  ),
  PROOF_TEMPLATE_UNEXPECTED: def(
    'error',
    'proof',
    'proven',
    'the blob is a contract of a template the reserve profile does not list',
  ),
  PROOF_DUPLICATE: def(
    'error',
    'proof',
    'asserted',
    'two proofs name the same pool, or one contract backs two pools',
  ),
  // proof <-> state
  POOL_MISSING_PROOF: def(
    'error',
    'state',
    'asserted',
    'an active pool of /pools/state has no proof in /pools/proof',
  ),
  STATE_PROOF_MISMATCH: def(
    'error',
    'state',
    'proven',
    '/pools/state reserves differ from the verified reserves of the same contract',
  ),
  STATE_ENTRY_MALFORMED: def(
    'error',
    'state',
    'asserted',
    'a /pools/state entry does not have the documented shape; the other pools are still checked',
  ),
  INFO_ENTRY_MALFORMED: def(
    'error',
    'state',
    'asserted',
    'a /pools/info entry does not have the documented shape; the other pools are still checked',
  ),
  STATE_NOT_COMPARABLE: def(
    'info',
    'state',
    'could-not-check',
    'state and proof named different contracts (the pool changed between fetches)',
  ),
  STATE_FIELD_MISMATCH: def(
    'error',
    'state',
    'proven',
    '/pools/state tokens, fee rate or symbol differ from the proof or the market',
  ),
  PRICE_MISMATCH: def(
    'error',
    'state',
    'proven',
    '/pools/state price is not reserve_b / reserve_a of the verified reserves',
  ),
  TVL_MISMATCH: def(
    'error',
    'state',
    'proven',
    '/pools/state tvl_cc is not twice the verified CC-side reserve',
  ),
  POOLS_INFO_MISMATCH: def(
    'error',
    'state',
    'proven',
    '/pools/info disagrees with the proof (tokens, fee rate, contract) or misses a pool',
  ),
  // history (against the mirror)
  HISTORY_TIME_REGRESSION: def('error', 'history', 'proven', 'ledger_created_at of a pool went back in time'),
  HISTORY_CONTRACT_REUSED: def(
    'error',
    'history',
    'proven',
    'a contract ID reappeared with different contents (or for another pool)',
  ),
  HISTORY_RESERVES_CHANGED_WITHOUT_NEW_CONTRACT: def(
    'error',
    'history',
    'asserted',
    'reserves changed while the contract ID stayed the same',
  ),
  HISTORY_LP_SHARE_VALUE_DECREASED: def(
    'error',
    'history',
    'proven',
    'the value of one LP share, sqrt(reserve_a x reserve_b) / total_lp_supply, decreased beyond rounding',
  ),
  HISTORY_TEMPLATE_CHANGED: def(
    'warning',
    'history',
    'proven',
    'the reserve template or package of a pool changed',
  ),
  HISTORY_POOL_VANISHED: def(
    'warning',
    'history',
    'asserted',
    'a pool seen in the mirror has no proof any more',
  ),
  HISTORY_STALE_PROOF: def(
    'error',
    'history',
    'proven',
    'the proof served as latest is a contract the mirror has already seen superseded',
  ),
  // market data
  MARKET_MISMATCH: def(
    'error',
    'market',
    'asserted',
    '/markets/info does not list a service market for a pool, or lists one without a pool',
  ),
  PAIR_MISMATCH: def('error', 'market', 'asserted', '/aggregator/pairs does not match the markets and pools'),
  TICKER_MISMATCH: def(
    'error',
    'market',
    'proven',
    'a ticker last price, bid or ask is off the verified reserves and fee rate',
  ),
  ORDERBOOK_MISMATCH: def(
    'error',
    'market',
    'proven',
    'an orderbook level is off the constant-product formula of the verified reserves',
  ),
  // probe quotes
  QUOTE_MISMATCH: def(
    'error',
    'quote',
    'proven',
    'a quote differs from the recomputation from verified reserves and published fees',
  ),
  QUOTE_TOO_GENEROUS: def(
    'error',
    'quote',
    'proven',
    'a quote promises more than the verified reserves can pay',
  ),
  QUOTE_RULE_VIOLATION: def(
    'error',
    'quote',
    'asserted',
    'a quote breaks a published rule (memo, minimum size, echo, route)',
  ),
  TICKER_PROOF_INVALID: def(
    'error',
    'market',
    'proven',
    'a reserve contract blob a ticker carried does not prove the contract it names (does not decode, ID does not recompute, or not a reserve template)',
  ),
  QUOTE_PROOF_INVALID: def(
    'error',
    'quote',
    'proven',
    'a reserve contract blob a quote carried does not prove the contract it names (does not decode, ID does not recompute, or not a reserve template)',
  ),
  QUOTE_UNAVAILABLE: def(
    'warning',
    'quote',
    'could-not-check',
    'a probe quote could not be obtained or recomputed',
  ),
  // volume and statistics
  VOLUME_FEES_DONT_ADD_UP: def(
    'error',
    'volume',
    'asserted',
    '/volume fees_cc is not lp_fees_cc + protocol_fees_cc',
  ),
  VOLUME_WINDOWS_DONT_ADD_UP: def(
    'error',
    'volume',
    'asserted',
    'consecutive /volume windows do not add up to the whole window',
  ),
  STATS_VOLUME_MISMATCH: def(
    'error',
    'volume',
    'asserted',
    '/stats 24 h count or volume lies outside the /volume windows that bound every trailing 24 h window it may cover',
  ),
  STATS_TVL_MISMATCH: def(
    'error',
    'volume',
    'proven',
    '/stats pool_tvl.tvl_cc differs from the sum of the verified pool TVLs',
  ),
  // cached market data (docs/decisions/audit.md "Cached market data")
  MARKET_DATA_FROM_CACHE: def(
    'info',
    'market',
    'proven',
    'cached market data matches a verified reserve state that was current within its cache window, not the newest one',
  ),
  MARKET_DATA_STALE_UNVERIFIED: def(
    'warning',
    'market',
    'could-not-check',
    'cached market data matches no known reserve state, and the auditor did not see every state of the pool within its cache window (after re-fetching): not checked',
  ),
  // the ledger (issue 26; docs/findings.md "Ledger checks"): what a participant the auditor trusts reports
  PROOF_NOT_ON_LEDGER: def(
    'error',
    'ledger',
    'proven',
    'the participant does not know the served contract although the reading party is a stakeholder of it and nothing was pruned: the contract was never created',
  ),
  PROOF_ARCHIVED: def(
    'error',
    'ledger',
    'proven',
    'the participant reports the served contract archived before the proof was fetched, beyond the pool cache window and clock slack',
  ),
  PROOF_LEDGER_BLOB_MISMATCH: def(
    'error',
    'ledger',
    'proven',
    "the participant's created event for the served contract ID carries another blob than the one served",
  ),
  LEDGER_PROOF_SUPERSEDED: def(
    'info',
    'ledger',
    'proven',
    'the served contract was archived on the ledger within the cache window of the fetch, or after the audit began (an honest cached proof): confirmed at the offset before its archive',
  ),
  LEDGER_RESERVE_UNLISTED: def(
    'error',
    'ledger',
    'proven',
    'an active reserve contract on the ledger belongs to no pool of /pools/proof, or is a second live reserve contract of one pool',
  ),
  RESERVE_CHAIN_FORK: def(
    'error',
    'ledger',
    'proven',
    "(mirror follow) a reserve contract was created while another contract of its pool was live, or it replaces a contract other than the pool's last archived one",
  ),
  RESERVE_CHAIN_GAP: def(
    'error',
    'ledger',
    'proven',
    "(mirror follow) a reserve contract's sequence is not its predecessor's + 1, or its predecessor was never reported created while the pool was followed",
  ),
  LEDGER_EVENT_PROOF_FAILED: def(
    'error',
    'ledger',
    'proven',
    '(mirror follow) the contract ID of a created event the participant reported does not recompute from its blob',
  ),
  RESERVE_CHAIN_UNVERIFIABLE: def(
    'warning',
    'ledger',
    'could-not-check',
    "(mirror follow) a followed created event has no blob, its ID cannot be recomputed, or its template has no sequence/previous: the contract is not placed in its pool's chain, and its successor starts the chain anew",
  ),
  LEDGER_UNAVAILABLE: def(
    'warning',
    'ledger',
    'could-not-check',
    'the participant could not answer (unreachable, 401/403, pruned, the party is not a stakeholder, a response not in the documented shape): not checked',
  ),
  // tokens
  TOKEN_MISSING: def('error', 'tokens', 'asserted', 'a pool token is not listed in /tokens/info'),
  TOKEN_SYMBOL_MISMATCH: def(
    'warning',
    'tokens',
    'asserted',
    'a pool token symbol differs between /pools/state and /tokens/info',
  ),
} as const satisfies Record<string, FindingCodeDef>;

export type FindingCode = keyof typeof FINDING_CODES;

/** All codes, in catalogue order. */
export const ALL_FINDING_CODES: readonly FindingCode[] = Object.keys(FINDING_CODES) as FindingCode[];
