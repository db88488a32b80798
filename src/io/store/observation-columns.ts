/**
 * Compact observations (docs/mirror.md "A compact mirror"): from schema 4 an observation stores
 * NULL where its value equals what the mirror already holds — `state_contract_id` when it is the
 * proof's contract ID (`state_is_contract`), `blob_sha256` and `ledger_created_at` when they are the
 * contract row's (both immutable once the contract is stored) — and every read rebuilds the value
 * with these expressions (both backends), so reads return exactly what the full row held.
 * The snapshot plan (./plan/snapshot-plan.ts) decides, at write time, what a new row may omit. From schema 5 an
 * observation references its contract by the contract's integer key (`contract_key` = `contracts.ckey`,
 * schema/005-contract-keys.ts) and the contract ID is read from the contract row.
 */

/**
 * `proof_reserve_a` / `_b` of the observation row aliased `o`, as the proof published them: from
 * schema 5 a row with a proof stores NULL when they equal the row's `reserve_a` / `_b`
 * (the snapshot plan); a row without a proof has neither.
 */
export function buildProofReserveSql(side: 'a' | 'b', o = 'o'): string {
  return `coalesce(${o}.proof_reserve_${side}, CASE WHEN ${o}.contract_key IS NOT NULL THEN ${o}.reserve_${side} END)`;
}

/** The contract ID of the observation row aliased `o` (NULL when it had no proof) */
export function buildContractIdSql(o = 'o', contracts = 'contracts'): string {
  return `(SELECT ok.contract_id FROM ${contracts} ok WHERE ok.ckey = ${o}.contract_key)`;
}

/** the value of observation column `col` (`blob_sha256` or `ledger_created_at`) of the row aliased `o` */
function fromContract(col: 'blob_sha256' | 'ledger_created_at', o: string, contracts: string): string {
  return `coalesce(${o}.${col}, (SELECT oc.${col} FROM ${contracts} oc WHERE oc.ckey = ${o}.contract_key))`;
}

/** `state_contract_id` of the observation row aliased `o`, as published */
export function buildStateContractIdSql(o = 'o', contracts = 'contracts'): string {
  return `CASE WHEN ${o}.state_is_contract THEN ${buildContractIdSql(o, contracts)} ELSE ${o}.state_contract_id END`;
}

/** `ledger_created_at` of the observation row aliased `o`, as published */
export function buildLedgerCreatedAtSql(o = 'o', contracts = 'contracts'): string {
  return fromContract('ledger_created_at', o, contracts);
}

/** `blob_sha256` of the observation row aliased `o`, as served */
export function buildBlobSha256Sql(o = 'o', contracts = 'contracts'): string {
  return fromContract('blob_sha256', o, contracts);
}
