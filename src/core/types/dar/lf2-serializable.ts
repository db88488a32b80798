/**
 * Serializable LF 2.x types → the shared `DamlType` (docs/protocol/dar-format.md §4.3 "BuiltinType",
 * §6.2): only the types a contract argument can contain convert; anything else (arrows,
 * foralls, structs, synonyms, higher-kinded variables, Any, BigNumeric …) is DAR_TYPE_INVALID.
 * TextMap is builtin 19 (1001 in the frozen 2.1 snapshot is accepted too).
 */
import { DarError } from '../../../errors/dar.js';
import type { DamlType } from '../daml-type.js';
import type { LfType } from './lf2-types.js';

const BUILTIN_NAMES: Readonly<Record<number, string>> = {
  13: 'Any',
  14: 'AnyException',
  15: 'TypeRep',
  16: 'Arrow',
  17: 'Update',
  18: 'FailureCategory',
  1002: 'BigNumeric',
  1003: 'RoundingMode',
};

/**
 * Converts a serializable LF type to DamlType; anything else is DAR_TYPE_INVALID. `where` names the
 * use; `memo` (the package decode's) makes a shared LF type convert once, to one shared DamlType.
 */
export function toDamlType(t: LfType, where: string, memo: WeakMap<LfType, DamlType>): DamlType {
  const hit = memo.get(t);
  if (hit !== undefined) return hit;
  const out = convert(t, where, memo);
  memo.set(t, out);
  return out;
}

function convert(t: LfType, where: string, memo: WeakMap<LfType, DamlType>): DamlType {
  switch (t.t) {
    case 'var':
      if (t.args.length > 0) throw notSerializable(where, `higher-kinded type variable ${t.name}`);
      return { kind: 'var', name: t.name };
    case 'con':
      return { kind: 'con', ref: t.ref, args: t.args.map((a) => toDamlType(a, where, memo)) };
    case 'builtin':
      return convertBuiltin(t.b, t.args, where, memo);
    case 'nat':
      throw notSerializable(where, `a bare type-level natural ${t.n}`);
    default:
      throw notSerializable(where, t.what);
  }
}

/** The builtins whose Daml type keeps none of its arguments: number → [name, arity, type]. */
const SCALAR_BUILTINS: Readonly<Record<number, readonly [string, number, DamlType]>> = {
  0: ['Unit', 0, { kind: 'unit' }],
  1: ['Bool', 0, { kind: 'bool' }],
  2: ['Int64', 0, { kind: 'int64' }],
  3: ['Date', 0, { kind: 'date' }],
  4: ['Timestamp', 0, { kind: 'timestamp' }],
  6: ['Party', 0, { kind: 'party' }],
  7: ['Text', 0, { kind: 'text' }],
  8: ['ContractId', 1, { kind: 'contractId' }],
};

function convertBuiltin(
  b: number,
  args: readonly LfType[],
  where: string,
  memo: WeakMap<LfType, DamlType>,
): DamlType {
  const arity = (n: number, label: string): void => {
    if (args.length !== n) {
      throw new DarError(
        'DAR_TYPE_INVALID',
        `${where}: ${label} expected ${n} type arguments, got ${args.length}`,
      );
    }
  };
  const scalar = SCALAR_BUILTINS[b];
  if (scalar !== undefined) {
    arity(scalar[1], scalar[0]);
    return scalar[2];
  }
  switch (b) {
    case 5: {
      arity(1, 'Numeric');
      const n = args[0]!;
      if (n.t !== 'nat')
        throw new DarError('DAR_TYPE_INVALID', `${where}: Numeric expected a nat scale argument`);
      return { kind: 'numeric', scale: n.n };
    }
    case 9:
      arity(1, 'Optional');
      return { kind: 'optional', type: toDamlType(args[0]!, where, memo) };
    case 10:
      arity(1, 'List');
      return { kind: 'list', type: toDamlType(args[0]!, where, memo) };
    case 11:
      arity(2, 'GenMap');
      return {
        kind: 'genMap',
        key: toDamlType(args[0]!, where, memo),
        value: toDamlType(args[1]!, where, memo),
      };
    case 19:
    case 1001:
      arity(1, 'TextMap');
      return { kind: 'textMap', value: toDamlType(args[0]!, where, memo) };
    default:
      throw notSerializable(where, `builtin ${BUILTIN_NAMES[b] ?? b}`);
  }
}

function notSerializable(where: string, what: string): DarError {
  return new DarError('DAR_TYPE_INVALID', `${where}: expected a serializable type, got ${what}`);
}
