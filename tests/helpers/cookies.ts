/**
 * The `sid=…` pair of a response's session cookie, for a `cookie` header; empty when the response
 * set none. A response may set several cookies (the device id too), so each one is looked at.
 */
export function sessionCookieOf(response: Response): string {
  for (const cookie of response.headers.getSetCookie()) {
    const pair = cookie.split(';')[0] ?? '';
    if (pair.startsWith('sid=')) return pair;
  }
  return '';
}
