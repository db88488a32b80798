/**
 * Mirror schema v2 (docs/decisions/mirror.md, "history reads"): indexes for the set-based history
 * query. `contracts_history` covers every contracts column the history checks read, so the join
 * from observations never touches the contract rows themselves (whose blobs spill into overflow
 * pages); `observations_contract` serves lookups of the observations of a contract. PostgreSQL:
 * the same index as the key plus INCLUDE columns.
 */
import type { SchemaStep } from './dialect.js';

export const HISTORY_INDEXES: SchemaStep = {
  name: 'history-indexes',
  sqlite: [
    `CREATE INDEX contracts_history ON contracts (contract_id, verification_status, verification_reason, reserve_a,
     reserve_b, total_lp_supply, created_at_ms, created_at_micros, fields_source, package_id, package_name, module_name,
     entity_name)`,
    'CREATE INDEX observations_contract ON observations (contract_id)',
  ],
  postgres: [
    `CREATE INDEX contracts_history ON contracts (contract_id) INCLUDE (verification_status, verification_reason,
     reserve_a, reserve_b, total_lp_supply, created_at_ms, created_at_micros, fields_source, package_id, package_name,
     module_name, entity_name)`,
    'CREATE INDEX observations_contract ON observations (contract_id)',
  ],
};
