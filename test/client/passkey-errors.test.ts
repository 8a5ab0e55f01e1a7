/** The passkey client's errors are the SDK's: one condition, one code, whichever call met it. */
import { describe, expect, it } from 'vitest'
import { AuthClientError } from '../../src/client/errors.js'
import { fromBrowserError, fromServer, PasskeyError } from '../../src/client/passkey/errors.js'

describe('PasskeyError', () => {
  it('is an AuthClientError whose code is the server\'s, with the reason kept', () => {
    const stale = fromServer(403, { error: 'SessionNotFresh', message: 'sign in again' }, 'not-fresh')
    expect(stale).toBeInstanceOf(AuthClientError)
    expect(stale).toBeInstanceOf(PasskeyError)
    // The same code as accounts.unlink or sessions.revoke give for a stale session.
    expect(stale).toMatchObject({ name: 'PasskeyError', code: 'SessionNotFresh', reason: 'not-fresh', refused: true })
    expect(fromServer(404, { error: 'WebAuthnVerificationError' }, 'unknown-credential')).toMatchObject({ code: 'WebAuthnVerificationError', reason: 'unknown-credential', refused: true })
    expect(fromServer(503, { error: 'Configuration' }, null)).toMatchObject({ code: 'ServerError', refused: false })
  })

  it('names what the browser refused with a Passkey… code and its reason', () => {
    const abort = new DOMException('aborted', 'AbortError')
    expect(fromBrowserError(abort)).toMatchObject({ code: 'PasskeyCancelled', reason: 'cancelled', refused: false })
    expect(fromBrowserError(new DOMException('no', 'NotAllowedError'))).toMatchObject({ code: 'PasskeyNotAllowed', reason: 'not-allowed' })
    expect(fromBrowserError(new DOMException('rp', 'SecurityError'))).toMatchObject({ code: 'PasskeySecurityError', reason: 'security' })
    expect(new PasskeyError('network', 'offline')).toMatchObject({ code: 'NetworkError', reason: 'network' })
  })
})
