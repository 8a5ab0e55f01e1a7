/**
 * A built-in plugin's code loads where the configuration uses it, and its heavy parts on first use
 * (issue 42, item 2): the start-up code of a server bundled for a fetch runtime, built as
 * `npm run bench -- server-size` builds it (bench/server-size.ts), holds no WebAuthn, TOTP, QR or
 * OAuth library and only the light parts (option checks, cookie names, shells) of each folder.
 * Sizes themselves are the bench's figures, not asserted here.
 */
import { describe, expect, it } from 'vitest'
import { measure } from '../../bench/server-size.js'

const credentialsOnly = 'Credentials({ authorize: async () => null })'
/** One bundle of the credentials-only server for the three tests that read it (a bundle takes seconds). */
let credentialsOnlyBuild: ReturnType<typeof measure> | undefined
const measureCredentialsOnly = () => (credentialsOnlyBuild ??= measure(credentialsOnly))
const heavy = /node_modules\/(otpauth|uqr|@simplewebauthn|oauth4webapi)\/|webauthn\/aaguid-names\.ts$/
/** The files of a plugin's folder in a list of inputs, by name. */
const filesOf = (folder: string, inputs: Iterable<string>) => [...inputs].filter((input) => input.startsWith(`src/server/features/${folder}/`)).map((input) => input.slice(`src/server/features/${folder}/`.length)).sort()

describe('start-up code of a credentials-only server', () => {
  it('holds no OAuth, WebAuthn, TOTP or QR library, nor the authenticator names', async () => {
    const { startupInputs } = await measureCredentialsOnly()
    expect([...startupInputs.keys()].filter((input) => heavy.test(input))).toEqual([])
  }, 60_000)

  it("holds only the light parts of oauth, mfa and webauthn: checks run at start-up, cookie names, shells", async () => {
    const { startupInputs } = await measureCredentialsOnly()
    expect(filesOf('oauth', startupInputs.keys())).toEqual(['access-token-error.ts', 'check-cookies.ts', 'discovery-cache.ts', 'endpoints.ts', 'feature.ts', 'get-access-token.ts', 'required-fields.ts'])
    expect(filesOf('mfa', startupInputs.keys())).toEqual(['cookies.ts', 'feature.ts', 'options.ts'])
    expect(filesOf('webauthn', startupInputs.keys())).toEqual(expect.arrayContaining(['feature.ts', 'related-origins.ts']))
    expect(filesOf('webauthn', startupInputs.keys())).not.toContain('passkeys-route.ts')
  }, 60_000)
})

/** Sign-in steps, routes and session reading of password, email, dbsc and the Auth.js migration: loaded on first use. */
const loadedOnUse = [
  'password/routes.ts',
  'password/sign-in.ts',
  'password/hash.ts',
  'password/address-proven.ts',
  'email/sign-in.ts',
  'email/link.ts',
  'email/code.ts',
  'dbsc/routes.ts',
  'dbsc/proof.ts',
  'dbsc/registration.ts',
  'authjs-migration/sessions.ts',
  'authjs-migration/jwt.ts',
  'authjs-migration/database.ts',
].map((file) => `src/server/features/${file}`)

describe('start-up code of a credentials-only server, the other plugins', () => {
  it('holds no sign-in step, route or session reading of password, email, dbsc or the Auth.js migration; the bundle still has them, split off', async () => {
    const { startupInputs, allInputs } = await measureCredentialsOnly()
    expect(loadedOnUse.filter((file) => startupInputs.has(file))).toEqual([])
    expect(loadedOnUse.filter((file) => !allInputs.includes(file))).toEqual([])
    // What start-up needs stays: the option checks and the bound cookie's check on the session read.
    expect(startupInputs.has('src/server/features/password/options.ts')).toBe(true)
    expect(startupInputs.has('src/server/features/dbsc/bound-cookie.ts')).toBe(true)
  }, 60_000)
})

describe('a server with every built-in plugin in use', () => {
  it('still starts without the heavy libraries, which are in chunks loaded on first use', async () => {
    const every = await measure(
      `${credentialsOnly}, Passkey(), Password({ sendEmail: async () => {} }), Google`,
      `, mfa: true, session: { strategy: 'database', deviceBound: true }`,
    )
    expect([...every.startupInputs.keys()].filter((input) => heavy.test(input))).toEqual([])
    for (const lib of ['oauth4webapi', 'otpauth', 'uqr', '@simplewebauthn/server']) expect(every.allInputs.some((input) => input.includes(`node_modules/${lib}/`)), lib).toBe(true)
    expect(filesOf('oauth', every.allInputs)).toEqual(expect.arrayContaining(['start.ts', 'callback.ts', 'access-token.ts', 'access-token-call.ts']))
  }, 60_000)
})
