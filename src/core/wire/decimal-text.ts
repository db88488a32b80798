/**
 * The one grammar of decimal strings in the exchange's responses (docs/protocol/public-api.md
 * "Decimal strings"): digits, optionally a point and one or more decimal places; no sign (except
 * where a field is signed), no exponent, no leading zero, no spaces; at most 28 digits before the
 * point; any number of places after it (the whole string at most 200 characters). Fields the
 * service renders as Daml `Numeric 10` (api-decisions §1) also require exactly 10 places. A string
 * that breaks the grammar is described by the rule it breaks, for messages that say why.
 */

/** The longest decimal string read (a bound against hostile input, not a rule of the API). */
const MAX_DECIMAL_CHARS = 200;
const MAX_INTEGER_DIGITS = 28;

export interface DecimalRule {
  /** a leading '-' is allowed (fractions that may be negative, e.g. slippage) */
  readonly signed?: boolean;
  /** exactly this many decimal places (10 for Numeric 10 fields); absent: any number */
  readonly places?: number;
}

/** The rule `v` breaks as a decimal string, in words ("it has an exponent"), or null when it is one. */
export function checkDecimalText(v: unknown, rule: DecimalRule = {}): string | null {
  if (typeof v !== 'string') return 'it is not a string';
  if (v.length === 0) return 'it is empty';
  if (v.length > MAX_DECIMAL_CHARS) return `it is longer than ${MAX_DECIMAL_CHARS} characters`;
  let s = v;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (!rule.signed || s.startsWith('+')) return 'it has a sign';
    s = s.slice(1);
  }
  if (/[eE]/.test(s)) return 'it has an exponent';
  if (/\s/.test(s)) return 'it has spaces';
  const m = /^([0-9]*)(?:\.([0-9]*))?$/.exec(s);
  if (m === null) return 'it has a character other than digits and one point';
  const int = m[1] ?? '';
  const frac = m[2];
  if (int === '') return 'it has no digit before the point';
  if (frac === '') return 'it has no digit after the point';
  if (int.length > 1 && int.startsWith('0')) return 'it has a leading zero';
  if (int.length > MAX_INTEGER_DIGITS)
    return `it has more than ${MAX_INTEGER_DIGITS} digits before the point`;
  const places = frac?.length ?? 0;
  if (rule.places !== undefined && places !== rule.places)
    return `it has ${places} decimal place${places === 1 ? '' : 's'}, not ${rule.places}`;
  return null;
}
