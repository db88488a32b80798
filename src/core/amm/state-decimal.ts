/**
 * Decimals from our own state: the AMM's and the simulated ledger's reader of decimal strings it
 * wrote itself (docs/protocol/api-decisions.md §1), into the one money instance of
 * src/core/money/decimal.ts (precision, rounding and the §1 rounding helpers are stated there).
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import { Dec } from '../money/decimal.js';

/**
 * Reads a decimal string that came from our own state (a pool reserve, a fee rate). Not for hostile
 * input — use `parseAmount` for request bodies. Throws `AMM_INVALID_POOL` if the string is not a
 * plain decimal (optional minus sign, digits, optional fraction).
 */
export function toDec(value: string | Dec, field = 'amount'): Dec {
  if (typeof value !== 'string') return value;
  // decimal.js accepts hex/binary/exponent forms; state strings are plain decimals.
  if (!/^-?\d+(\.\d+)?$/.test(value)) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"${field}" expected a plain decimal string, got ${formatGot(value)}`,
    );
  }
  return new Dec(value);
}
