/**
 * The contracts a batch verification finds in a JSON value (docs/cli.md "verify-contract --batch"):
 * every object that holds a `created_event_blob` (the public API, the Scan API) or a
 * `createdEventBlob` (the Ledger API's JSON) string is one contract, identified by the
 * `contract_id` / `contractId` beside it. That one rule covers `{contract_id, created_event_blob}`
 * lines, a `/pools/proof` response (`reserve_contract`), a Ledger API active-contracts or events
 * response (`createdEvent`) and a Scan API response (`created_events`), without knowing any of
 * their layouts. The walk is iterative (no recursion on hostile nesting) and in document order.
 */

/** One contract found in the input: its published ID and its blob, where it was found. */
export interface ContractEntry {
  /** the contract ID next to the blob; null when the object has none (or not a string) */
  readonly contractId: string | null;
  /** the created_event_blob as found (base64 text; empty when the source left it out) */
  readonly blob: string;
  /** where in the value: a JSON path from its root, `$` for the root itself */
  readonly path: string;
}

const BLOB_KEYS = ['created_event_blob', 'createdEventBlob'] as const;
const ID_KEYS = ['contract_id', 'contractId'] as const;

/** A node still to visit, and how it is reached from its parent (the path is built only for hits). */
interface Frame {
  readonly value: unknown;
  readonly parent: Frame | null;
  readonly key: string | number | null;
}

function formatPath(f: Frame): string {
  const parts: string[] = [];
  for (let cur: Frame | null = f; cur !== null && cur.key !== null; cur = cur.parent) {
    parts.push(
      typeof cur.key === 'number'
        ? `[${cur.key}]`
        : /^[A-Za-z_$][\w$]*$/.test(cur.key)
          ? `.${cur.key}`
          : `[${JSON.stringify(cur.key)}]`,
    );
  }
  return `$${parts.reverse().join('')}`;
}

function stringField(o: Record<string, unknown>, keys: readonly string[]): string | null | undefined {
  for (const k of keys) {
    if (Object.hasOwn(o, k)) {
      const v = o[k];
      return typeof v === 'string' ? v : null;
    }
  }
  return undefined;
}

/**
 * The contracts in `value` (a parsed JSON document), in document order. An object with a blob
 * field is one contract and is not searched further; every other object and array is.
 */
export function* findContractEntries(value: unknown): Generator<ContractEntry> {
  const stack: Frame[] = [{ value, parent: null, key: null }];
  while (stack.length > 0) {
    const f = stack.pop() as Frame;
    const v = f.value;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const c: unknown = v[i];
        if (typeof c === 'object' && c !== null) stack.push({ value: c, parent: f, key: i });
      }
      continue;
    }
    const o = v as Record<string, unknown>;
    const blob = stringField(o, BLOB_KEYS);
    if (blob !== undefined) {
      const id = stringField(o, ID_KEYS);
      yield { contractId: id ?? null, blob: blob ?? '', path: formatPath(f) };
      continue;
    }
    const keys = Object.keys(o);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      const c = o[k];
      if (typeof c === 'object' && c !== null) stack.push({ value: c, parent: f, key: k });
    }
  }
}
