/**
 * Credential stripping for URLs that appear in messages, logs and the mirror: user:password@ is
 * removed and the values of sensitive query parameters are replaced by `***`.
 */

const SENSITIVE_QUERY =
  /^(token|access_token|api_key|apikey|key|secret|password|passwd|pwd|auth|signature|sig|code)$/i;

/** Returns `url` without credentials; a string that is not a URL is returned with `//user:pass@` cut. */
export function redactUrl(url: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return String(url).replace(/\/\/[^/@\s]*@/, '//');
  }
  u.username = '';
  u.password = '';
  for (const key of [...u.searchParams.keys()]) {
    if (SENSITIVE_QUERY.test(key)) u.searchParams.set(key, '***');
  }
  return u.toString();
}
