/**
 * Loaded with `node --import` into an app's server that a test runs as its guide says, so that
 * server stays on this machine: the breached-password check's requests (docs/passwords.md, on by
 * default) go to the test's stand-in for the range API (RANGE_ENDPOINT, test/support/range-server.ts),
 * and any other request off loopback fails, as it would offline.
 */
const pwned = 'https://api.pwnedpasswords.com/range/'
const range = process.env.RANGE_ENDPOINT
const loopback = new Set(['localhost', '127.0.0.1', '[::1]'])
const real = globalThis.fetch

globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input)
  if (range && url.startsWith(pwned)) return real(range + url.slice(pwned.length), init)
  if (!loopback.has(new URL(url).hostname)) return Promise.reject(new TypeError(`offline-fetch: no request leaves this machine (${new URL(url).host})`))
  return real(input, init)
}
