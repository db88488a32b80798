/**
 * The Connect swap memo (public-api.md "Memo rule", api-decisions §5): the buy instrument ID,
 * optionally followed by one space, `ref:` and an affiliate code of at most 20 characters.
 * A memo that does not parse is refunded by the simulator (it is not an error).
 */

export interface ParsedMemo {
  readonly buyInstrumentId: string;
  readonly affiliateCode: string | null;
}

/** Maximum length of the affiliate code in a memo (public-api.md "Limits"). */
export const MAX_AFFILIATE_CODE_LENGTH = 20;
/** A memo longer than this is refused outright (no legitimate memo comes close). */
export const MAX_MEMO_LENGTH = 512;

const REF = ' ref:';

/**
 * Parses a transfer memo; returns null when it is not of the form `<id>` or `<id> ref:<code>`
 * (empty id, whitespace or control characters in the id, code over 20 characters or empty).
 */
export function parseMemo(memo: string): ParsedMemo | null {
  if (typeof memo !== 'string' || memo.length === 0 || memo.length > MAX_MEMO_LENGTH) return null;
  const at = memo.indexOf(REF);
  const id = at < 0 ? memo : memo.slice(0, at);
  const code = at < 0 ? null : memo.slice(at + REF.length);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (id.length === 0 || /[\s\u0000-\u001f\u007f]/.test(id)) return null;
  if (code !== null) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    if (code.length === 0 || [...code].length > MAX_AFFILIATE_CODE_LENGTH || /[\u0000-\u001f\u007f]/.test(code)) {
      return null;
    }
  }
  return { buyInstrumentId: id, affiliateCode: code };
}

/** The memo a quote returns for `buyInstrumentId` (code truncated to 20 characters). */
export function formatMemo(buyInstrumentId: string, affiliateCode?: string | null): string {
  if (affiliateCode === undefined || affiliateCode === null || affiliateCode === '') return buyInstrumentId;
  return `${buyInstrumentId}${REF}${[...affiliateCode].slice(0, MAX_AFFILIATE_CODE_LENGTH).join('')}`;
}
