/**
 * Batch verification of contract IDs (docs/cli.md "verify-contract --batch", docs/library.md): a
 * stream of JSON (JSON Lines, or one document) → every contract in it (`created_event_blob` /
 * `createdEventBlob` beside its contract ID, src/core/verdict/contract-entries.ts) → its verdict,
 * as an async iterator, one contract at a time, so memory stays bounded by one line (or one
 * document, capped) whatever the input's length. Each verdict comes from the one cascade
 * (src/core/verdict/cascade.ts): the verdict engine answers a clean contract, the reference walk
 * (`verifyContractId`) everything else, with its reasons.
 */

import { versionOfIdHex } from '../core/hash/contract-id.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import { HashContext } from '../core/hash/hash-context.js';
import type { VerificationReason, VerificationStatus } from '../core/hash/verify-contract-id.js';
import { formatQualifiedName } from '../core/types/daml-type.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { verifyContractIdCascade } from '../core/verdict/cascade.js';
import { type ContractEntry, findContractEntries } from '../core/verdict/contract-entries.js';
import type { VerdictEngine } from '../core/verdict/engine.js';
import { createWasmVerdictEngine } from '../core/verdict/wasm/engine.js';
import { readJsonValues } from '../io/files/json-values.js';
import { decodeBase64NodeScratch } from '../io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../io/node-sha256.js';

/** The verdict on one contract of a batch. */
export interface BatchVerdict {
  /** 1-based position among the verdicts of this batch */
  readonly index: number;
  /** the JSON Lines line it came from (1-based); null for a single document */
  readonly line: number | null;
  /** where in that line's (or the document's) JSON value: `$.data.pools[0].reserve_contract` */
  readonly path: string;
  /** the published contract ID; null when the input gave none */
  readonly contractId: string | null;
  /** verified, mismatch (a definite failure) or could-not-check */
  readonly status: VerificationStatus;
  /** from the contract ID; null when it is not a V1 contract ID */
  readonly version: ContractIdVersion | null;
  /** why it is not verified (empty when verified) */
  readonly reasons: readonly VerificationReason[];
  /** `package-name Module:Entity` when the blob was decoded by the reference; null otherwise */
  readonly template: string | null;
}

export interface VerifyContractBatchOptions {
  /** Daml types for V12 contract IDs (every DAR and type file at once) */
  readonly types?: TypeEnv | undefined;
  /** what the input is called in messages (default `input`) */
  readonly source?: string;
  /** the cap on one JSON document (or one JSON Lines line); src/io/files/json-values.ts */
  readonly maxDocumentBytes?: number;
  /** the verdict engine; default: the WebAssembly engine (null: the reference walk alone) */
  readonly engine?: VerdictEngine | null;
}

function invalid(
  index: number,
  line: number | null,
  path: string,
  contractId: string | null,
  message: string,
): BatchVerdict {
  return {
    index,
    line,
    path,
    contractId,
    status: 'could-not-check',
    version: contractId === null ? null : versionOfIdHex(contractId),
    reasons: [{ code: 'BATCH_ENTRY_INVALID', message, mismatch: false }],
    template: null,
  };
}

function verifyEntry(
  index: number,
  line: number | null,
  e: ContractEntry,
  types: TypeEnv | undefined,
  engine: VerdictEngine | null,
  context: HashContext,
): BatchVerdict {
  if (e.contractId === null)
    return invalid(
      index,
      line,
      e.path,
      null,
      `"${e.path}" expected a contract_id (or contractId) string beside the created_event_blob, got none`,
    );
  if (e.blob === '')
    return invalid(
      index,
      line,
      e.path,
      e.contractId,
      `"${e.path}" expected a created_event_blob (base64), got an empty one (a Ledger API sends it only when the request asks for it: includeCreatedEventBlob)`,
    );
  const r = verifyContractIdCascade({
    contractId: e.contractId,
    blob: e.blob,
    types,
    engine,
    sha256: sha256Node,
    base64: decodeBase64NodeScratch,
    context,
  });
  // null: the engine verified it (nothing decoded, no reasons)
  const c = r?.contract ?? null;
  return {
    index,
    line,
    path: e.path,
    contractId: e.contractId,
    status: r === null ? 'verified' : r.status,
    version: r === null ? versionOfIdHex(e.contractId) : r.version,
    reasons: r?.reasons ?? [],
    template: c === null ? null : `${c.packageName} ${formatQualifiedName(c.templateId)}`,
  };
}

/**
 * The verdict on every contract in `input` (bytes of JSON Lines or of one JSON document), in input
 * order. A line that is not JSON, or holds no contract, is one could-not-check verdict
 * (BATCH_ENTRY_INVALID); a stream that fails or a document over the cap throws a CodecError.
 */
export async function* verifyContractBatch(
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: VerifyContractBatchOptions = {},
): AsyncGenerator<BatchVerdict> {
  const engine = options.engine === undefined ? createWasmVerdictEngine(sha256NodeBinary) : options.engine;
  // one context for the whole batch: the reference walk's builder, caches and scratch
  const context = new HashContext();
  const source = options.source ?? 'input';
  let index = 0;
  const read =
    options.maxDocumentBytes === undefined
      ? { source }
      : { source, maxDocumentBytes: options.maxDocumentBytes };
  for await (const v of readJsonValues(input, read)) {
    const where = v.line === null ? `"${source}"` : `"${source}" line ${v.line}`;
    if (!v.ok) {
      yield invalid(++index, v.line, '$', null, `${where} ${v.error}`);
      continue;
    }
    let found = false;
    for (const e of findContractEntries(v.value)) {
      found = true;
      yield verifyEntry(++index, v.line, e, options.types, engine, context);
    }
    if (!found)
      yield invalid(
        ++index,
        v.line,
        '$',
        null,
        `${where} expected a contract (an object with created_event_blob or createdEventBlob and its contract id), got none`,
      );
  }
}
