/**
 * Parsing the Connect swap memo (docs/protocol/public-api.md "Memo rule", api-decisions §5): the buy
 * instrument ID, optionally followed by one space, `ref:` and an affiliate code of at most 20 characters.
 * (The quote side formats it: `formatMemo` in src/core/amm/quote.ts.) A memo that does not parse
 * is refunded by the simulator; it is not an error.
 */

export interface ParsedMemo {
  readonly buyInstrumentId: string;
  readonly affiliateCode: string | null;
}

/** Maximum length of the affiliate code in a memo, in code points (docs/protocol/public-api.md "Limits"). */
const MAX_AFFILIATE_CODE_LENGTH = 20;
/** A memo longer than this is refused outright (no legitimate memo comes close). */
const MAX_MEMO_LENGTH = 512;

const REF = ' ref:';

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Parses a transfer memo; returns null when it is not of the form `<id>` or `<id> ref:<code>`
 * (empty id, whitespace or control characters in the id, empty code or one over 20 code points,
 * control characters in the code).
 */
export function parseMemo(memo: string): ParsedMemo | null {
  if (typeof memo !== 'string' || memo.length === 0 || memo.length > MAX_MEMO_LENGTH) return null;
  const at = memo.indexOf(REF);
  const id = at < 0 ? memo : memo.slice(0, at);
  const code = at < 0 ? null : memo.slice(at + REF.length);
  if (id.length === 0 || /\s/.test(id) || hasControlCharacter(id)) return null;
  if (code !== null) {
    if (code.length === 0 || [...code].length > MAX_AFFILIATE_CODE_LENGTH || hasControlCharacter(code))
      return null;
  }
  return { buyInstrumentId: id, affiliateCode: code };
}
