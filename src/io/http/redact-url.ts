/**
 * Credential stripping for URLs that appear in messages, logs and the mirror: user:password@ is
 * removed and the values of sensitive query parameters are replaced by `***`.
 */

const SENSITIVE_QUERY =
  /^(token|access_token|api_key|apikey|key|secret|password|passwd|pwd|auth|signature|sig|code)$/i;

/**
 * Returns `url` without credentials; a string that is not a URL is returned with its leading
 * `user:pass@` (after an optional `scheme://`) cut and sensitive query values replaced.
 */
export function redactUrl(url: string | URL): string {
  let u: URL | null;
  try {
    u = new URL(String(url));
  } catch {
    u = null;
  }
  // not a URL, or one without a host (`user:pass@host` parses as the scheme "user:")
  if (u === null || u.host === '')
    return String(url)
      .replace(/\/\/[^/@\s]*@/g, '//')
      .replace(/^[^/@\s]*@/, '')
      .replace(/([?&])([^=&#\s]*)=([^&#\s]*)/g, (m, sep: string, k: string) =>
        SENSITIVE_QUERY.test(k) ? `${sep}${k}=***` : m,
      );
  u.username = '';
  u.password = '';
  for (const key of [...u.searchParams.keys()]) {
    if (SENSITIVE_QUERY.test(key)) u.searchParams.set(key, '***');
  }
  return u.toString();
}
