/**
 * Daml-LF serializable types and data-type definitions: the vocabulary of the type
 * environment (docs/protocol/contract-id.md §6.4, docs/protocol/dar-format.md §4.3, §6).
 * A type environment is filled either from a JSON type file or from a DAR; both produce these.
 */

export interface QualifiedName {
  /** module dotted-name segments, e.g. ['Splice', 'Amulet'] */
  readonly module: readonly string[];
  /** entity dotted-name segments, e.g. ['TransferInput', 'ExtTransferInput'] */
  readonly entity: readonly string[];
}

export interface TypeConRef extends QualifiedName {
  /** package id (64 hex) of the package that defines the data type */
  readonly packageId: string;
}

export type DamlType =
  | { readonly kind: 'unit' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'int64' }
  | { readonly kind: 'text' }
  | { readonly kind: 'party' }
  | { readonly kind: 'date' }
  | { readonly kind: 'timestamp' }
  | { readonly kind: 'numeric'; readonly scale: number }
  /** ContractId τ — the template argument is irrelevant for hashing and not kept */
  | { readonly kind: 'contractId' }
  | { readonly kind: 'optional'; readonly type: DamlType }
  | { readonly kind: 'list'; readonly type: DamlType }
  | { readonly kind: 'textMap'; readonly value: DamlType }
  | { readonly kind: 'genMap'; readonly key: DamlType; readonly value: DamlType }
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'con'; readonly ref: TypeConRef; readonly args: readonly DamlType[] };

export interface FieldDef {
  readonly name: string;
  readonly type: DamlType;
}

export type DataTypeDef =
  | {
      readonly kind: 'record';
      readonly name: QualifiedName;
      readonly params: readonly string[];
      readonly fields: readonly FieldDef[];
    }
  /** constructors in declaration order: rank = index */
  | {
      readonly kind: 'variant';
      readonly name: QualifiedName;
      readonly params: readonly string[];
      readonly constructors: readonly FieldDef[];
    }
  | {
      readonly kind: 'enum';
      readonly name: QualifiedName;
      readonly params: readonly string[];
      readonly constructors: readonly string[];
    };

/** The types of one Daml package, keyed by qualified name `Mod.Sub:Entity.Sub`. */
export interface PackageTypes {
  readonly packageId: string;
  readonly name: string;
  readonly version: string;
  readonly dataTypes: ReadonlyMap<string, DataTypeDef>;
  /** qualified names (`Mod:Entity`) of the package's templates */
  readonly templates: ReadonlySet<string>;
}

/** Formats a qualified name as `Mod.Sub:Entity.Sub`. */
export function formatQualifiedName(q: QualifiedName): string {
  return `${q.module.join('.')}:${q.entity.join('.')}`;
}
