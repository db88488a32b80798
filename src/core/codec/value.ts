/**
 * The untyped Daml-LF value tree as it travels in a `created_event_blob`
 * (docs/protocol/blob-format.md §3.2, §3.3; docs/protocol/contract-id.md §4).
 *
 * Records are positional (no labels, no type ids); variants and enums carry only the
 * constructor name. Int64 and timestamps are bigint; numerics keep the blob's decimal string
 * (its scale = digits after the '.'); contract ids are the raw ID bytes.
 * TextMap entries are sorted by key (UTF-8 byte order) with no duplicates; GenMap entries keep
 * blob order.
 */

export type Value =
  | { readonly kind: 'unit' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'int64'; readonly value: bigint }
  | { readonly kind: 'numeric'; readonly value: string }
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'party'; readonly value: string }
  | { readonly kind: 'contractId'; readonly value: Uint8Array }
  /** days since 1970-01-01 (int32) */
  | { readonly kind: 'date'; readonly value: number }
  /** microseconds since the epoch */
  | { readonly kind: 'timestamp'; readonly value: bigint }
  | { readonly kind: 'optional'; readonly value: Value | null }
  | { readonly kind: 'list'; readonly elements: readonly Value[] }
  | { readonly kind: 'textMap'; readonly entries: readonly (readonly [string, Value])[] }
  | { readonly kind: 'genMap'; readonly entries: readonly (readonly [Value, Value])[] }
  | { readonly kind: 'record'; readonly fields: readonly Value[] }
  | { readonly kind: 'variant'; readonly constructor: string; readonly value: Value }
  | { readonly kind: 'enum'; readonly constructor: string };
