/**
 * The report page's URL fragment (issue 30 "the report page survives any fragment"): `#pool-<id>`
 * opens that pool's charts. The fragment is whatever the link or the reader typed, so it is read
 * without throwing: a malformed percent-escape (`#%E0%A4%A`) is a `URIError` in
 * `decodeURIComponent`, which left the page without charts; such a fragment is taken as written.
 */

/** The pool id `#pool-<id>` names (percent-decoded when it decodes), else null. */
export function parseReportFragment(hash: string): string | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    text = raw;
  }
  return text.startsWith('pool-') && text.length > 5 ? text.slice(5) : null;
}
