/**
 * A value typed against its Daml type: what the V12 TypedNormalForm hash consumes
 * (docs/protocol/contract-id.md §6.4, §6.5 column enc_T). Records carry their qualified type name and
 * field labels (trailing `None` fields already dropped or not is the hasher's business);
 * variants and enums carry the type name and the constructor rank.
 */
import type { Value } from '../codec/value.js';
import type { QualifiedName } from './daml-type.js';

export type TypedValue =
  /** the leaves (unit, bool, int64, numeric, text, party, contractId, date, timestamp), as untyped */
  | Exclude<
      Value,
      { readonly kind: 'optional' | 'list' | 'textMap' | 'genMap' | 'record' | 'variant' | 'enum' }
    >
  | { readonly kind: 'optional'; readonly value: TypedValue | null }
  | { readonly kind: 'list'; readonly elements: readonly TypedValue[] }
  | { readonly kind: 'textMap'; readonly entries: readonly (readonly [string, TypedValue])[] }
  | { readonly kind: 'genMap'; readonly entries: readonly (readonly [TypedValue, TypedValue])[] }
  | {
      readonly kind: 'record';
      readonly type: QualifiedName;
      readonly fields: readonly (readonly [string, TypedValue])[];
    }
  | {
      readonly kind: 'variant';
      readonly type: QualifiedName;
      readonly constructor: string;
      readonly rank: number;
      readonly value: TypedValue;
    }
  | {
      readonly kind: 'enum';
      readonly type: QualifiedName;
      readonly constructor: string;
      readonly rank: number;
    };
