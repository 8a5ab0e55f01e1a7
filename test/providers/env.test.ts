/**
 * Every module of src/providers builds with no arguments, and a provider left without a setting
 * takes it from the environment exactly as if it had been passed: `P()` with AUTH_<ID>_* set
 * starts as `P({ clientId, clientSecret, issuer, ... })` does, endpoints derived from them
 * included. What it still lacks is refused as `Latchkey(config)` starts, naming the variable
 * that fixes it.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import type { AuthConfig, OAuthConfig } from '../../src/core/types.js'
import { withRequiredFields } from '../../src/server/features/oauth/required-fields.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { Jar } from '../support/jar.js'

const providersDir = fileURLToPath(new URL('../../src/providers/', import.meta.url))
const names = readdirSync(providersDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .sort()

type Factory = (options?: Record<string, unknown>) => OAuthConfig<any>
const modules = new Map<string, Factory>()
for (const name of names) modules.set(name, ((await import(/* @vite-ignore */ `${providersDir}${name}.ts`)) as { default: Factory }).default)

/** The generic modules whose id is the app's: they need one, and no variable can give it. */
const generic = new Set(['oauth', 'oidc'])
const oauthNames = names.filter((name) => !generic.has(name) && ['oauth', 'oidc'].includes(modules.get(name)!({}).type))

/** The options a provider may take from the environment, and their variables, as this test knows them (Auth.js's names, and the settings of a few). */
const variables: Record<string, string> = { clientId: 'ID', clientSecret: 'SECRET', issuer: 'ISSUER', apiKey: 'KEY', accountID: 'ACCOUNT_ID', tenantId: 'TENANT_ID' }
const prefix = (id: string) => `AUTH_${id.toUpperCase().replace(/-/g, '_')}`
const valueOf = (id: string, option: string) => (option === 'issuer' ? `https://env.example/${id}` : `env-${option}-${id}`)

/** The environment giving `options` for the provider `id`. */
function envFor(id: string, options: readonly string[]): Record<string, string> {
  return Object.fromEntries(options.map((option) => [`${prefix(id)}_${variables[option]}`, valueOf(id, option)]))
}

/** The options themselves, as an app would pass them. */
function passed(id: string, options: readonly string[]): Record<string, string> {
  return Object.fromEntries(options.map((option) => [option, valueOf(id, option)]))
}

/** What a provider is, but for the functions it holds and `options` (what the app passed, which differs by design). */
function shape(provider: OAuthConfig<any>): unknown {
  const { options: _, ...rest } = provider
  return JSON.parse(JSON.stringify(rest))
}

/**
 * The options the provider builds something from beyond storing them: with every option given,
 * leaving this one out changes more than the option's own field. GitHub keeps an `issuer` it is
 * given but builds nothing from it, so it takes none from the environment.
 */
function derivesFrom(make: Factory, id: string): string[] {
  const all = Object.keys(variables)
  const full = shape(make(passed(id, all))) as Record<string, unknown>
  return all.filter((option) => {
    const without = shape(make(passed(id, all.filter((o) => o !== option)))) as Record<string, unknown>
    const { [option]: _a, ...a } = full
    const { [option]: _b, ...b } = without
    return JSON.stringify(a) !== JSON.stringify(b)
  })
}

/** `run()`'s error, or undefined. */
function errorOf(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

describe('every provider module, called with no arguments', () => {
  it('finds the modules: the 93 OAuth ones and the others', () => {
    expect(oauthNames).toHaveLength(93)
    expect(names).toContain('github')
  })

  it.each(names)('%s builds, or refuses with a typed error saying the fix (never a TypeError)', (name) => {
    const make = modules.get(name)!
    const error = errorOf(() => make())
    if (generic.has(name)) {
      expect(error).toBeInstanceOf(AuthError)
      expect(error).toMatchObject({ code: 'Configuration', message: expect.stringContaining(`needs an id`) })
      expect((error as Error).message).toContain(name === 'oidc' ? 'OIDC({' : 'OAuth({')
      return
    }
    expect(error).toBeUndefined()
    expect(make().id).toBe(name)
    expect(make(undefined).id).toBe(name)
  })
})

describe('the environment, read as Latchkey(config) starts', () => {
  it.each(oauthNames)('%s with AUTH_<ID>_* set starts as if each had been passed', (id) => {
    const make = modules.get(id)!
    const taken = ['clientId', 'clientSecret', ...derivesFrom(make, id).filter((o) => o !== 'clientId' && o !== 'clientSecret')]
    const resolved = withRequiredFields(make(), envFor(id, Object.keys(variables)))
    expect(resolved.id).toBe(id)
    expect(resolved.clientId).toBe(`env-clientId-${id}`)
    expect(resolved.clientSecret).toBe(`env-clientSecret-${id}`)
    expect(shape(resolved)).toEqual(shape(make(passed(id, taken))))
  })

  it.each(oauthNames)('%s with only AUTH_<ID>_ID and AUTH_<ID>_SECRET is what its client options make, or is refused naming the variable that fixes it', (id) => {
    const make = modules.get(id)!
    const env = envFor(id, ['clientId', 'clientSecret'])
    const error = errorOf(() => withRequiredFields(make(), env))
    // The same as passing them: Descope's issuer from its client id, TikTok's client_key, WeChat's appid.
    expect(error ?? 'starts').toEqual(errorOf(() => withRequiredFields(make(passed(id, ['clientId', 'clientSecret'])), {})) ?? 'starts')
    if (error === undefined) {
      expect(shape(withRequiredFields(make(), env))).toEqual(shape(make(passed(id, ['clientId', 'clientSecret']))))
      return
    }
    expect(error).toBeInstanceOf(AuthError)
    const message = (error as AuthError).message
    expect(error).toMatchObject({ code: 'Configuration' })
    const named = new RegExp(`^latchkey: provider "${id}" has no (\\w+): pass \\{ \\1 \\} in its options, or set (${prefix(id)}_[A-Z_]+)$`).exec(message)
    expect(named, message).not.toBeNull()
    const [, option, variable] = named!
    expect(variables[option!], message).toBe(variable!.slice(prefix(id).length + 1))
    // Setting the variable it names is the fix.
    expect(errorOf(() => withRequiredFields(make(), { ...env, [variable!]: valueOf(id, option!) }))).toBeUndefined()
  })

  it.each(oauthNames)('%s with no environment is refused for its clientId, naming AUTH_<ID>_ID', (id) => {
    const error = errorOf(() => withRequiredFields(modules.get(id)!(), {}))
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toMatchObject({ code: 'Configuration', message: `latchkey: provider "${id}" has no clientId: pass { clientId } in its options, or set ${prefix(id)}_ID` })
  })
})

describe('Latchkey(config) with providers built before it reads the environment', () => {
  const secret = 'env-test-secret-0123456789abcdefghij'
  afterEach(() => vi.unstubAllEnvs())

  function stub(env: Record<string, string>) {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  }

  it('starts with all of them, `P()` and `providers: [P]` alike, once the environment has their settings', () => {
    const built = oauthNames.map((id) => modules.get(id)!())
    for (const id of oauthNames) stub(envFor(id, Object.keys(variables)))
    expect(errorOf(() => Latchkey({ secret, providers: built }))).toBeUndefined()
    expect(errorOf(() => Latchkey({ secret, providers: oauthNames.map((id) => modules.get(id)!) as AuthConfig['providers'] }))).toBeUndefined()
  })

  it('refuses each without its clientId, naming the variable', () => {
    for (const id of oauthNames) stub({ [`${prefix(id)}_ID`]: '' })
    for (const id of oauthNames) {
      const error = errorOf(() => Latchkey({ secret, providers: [modules.get(id)!()] }))
      expect(error, id).toBeInstanceOf(AuthError)
      expect((error as Error).message, id).toContain(`or set ${prefix(id)}_ID`)
    }
  })

  it("sends the browser to AUTH_MASTODON_ISSUER's instance with AUTH_MASTODON_ID", async () => {
    const Mastodon = modules.get('mastodon')!
    stub({ AUTH_MASTODON_ID: 'env-id', AUTH_MASTODON_SECRET: 'env-secret', AUTH_MASTODON_ISSUER: 'https://social.example' })
    const jar = new Jar(Latchkey({ secret, providers: [Mastodon()] }))
    const res = await jar.postForm('/auth/signin/mastodon', { csrfToken: await jar.csrf() })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location')!)
    expect(location.origin + location.pathname).toBe('https://social.example/oauth/authorize')
    expect(location.searchParams.get('client_id')).toBe('env-id')
  })

  it('reads AUTH_MICROSOFT_ENTRA_ID_ISSUER over the multi-tenant default, and the discovery follows it', () => {
    const Entra = modules.get('microsoft-entra-id')!
    const issuer = 'https://login.microsoftonline.com/0000-tenant/v2.0'
    const resolved = withRequiredFields(Entra(), { AUTH_MICROSOFT_ENTRA_ID_ID: 'id', AUTH_MICROSOFT_ENTRA_ID_SECRET: 's', AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer })
    expect(resolved.issuer).toBe(issuer)
    expect(resolved.wellKnown).toBe(`${issuer}/.well-known/openid-configuration`)
    expect(resolved.jwks_endpoint).toBe('https://login.microsoftonline.com/0000-tenant/discovery/v2.0/keys')
  })

  it("sends AUTH_BUNGIE_KEY as Bungie's X-API-Key", async () => {
    const resolved = withRequiredFields(modules.get('bungie')!(), { AUTH_BUNGIE_ID: 'id', AUTH_BUNGIE_SECRET: 's', AUTH_BUNGIE_KEY: 'env-api-key' })
    const sent: Headers[] = []
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers))
      return Response.json({ Response: { bungieNetUser: { membershipId: '1', displayName: 'Guardian' } } })
    })
    try {
      await (resolved.userinfo as { request: (context: object) => Promise<unknown> }).request({ tokens: { access_token: 'token' }, provider: resolved })
    } finally {
      vi.unstubAllGlobals()
    }
    expect(sent.map((headers) => headers.get('x-api-key'))).toEqual(['env-api-key'])
  })

  it('keeps what the app passed over the environment, and what it changed on a copy', () => {
    const Keycloak = modules.get('keycloak')!
    const env = { AUTH_KEYCLOAK_ID: 'env-id', AUTH_KEYCLOAK_SECRET: 'env-secret', AUTH_KEYCLOAK_ISSUER: 'https://env.example/realms/a' }
    const given = withRequiredFields(Keycloak({ clientId: 'given-id', issuer: 'https://given.example/realms/b' }), env)
    expect(given).toMatchObject({ clientId: 'given-id', clientSecret: 'env-secret', issuer: 'https://given.example/realms/b', wellKnown: 'https://given.example/realms/b/.well-known/openid-configuration' })
    const copy = withRequiredFields({ ...Keycloak(), name: 'Company SSO' }, env)
    expect(copy).toMatchObject({ name: 'Company SSO', clientId: 'env-id', issuer: 'https://env.example/realms/a' })
  })

  it('reads no variable for an option the app passed: Deno, allowed a list of names, throws on any other', () => {
    const Keycloak = modules.get('keycloak')!
    const read: string[] = []
    // As Deno's process.env under --allow-env=AUTH_KEYCLOAK_SECRET: another name is NotCapable.
    const env = new Proxy({ AUTH_KEYCLOAK_SECRET: 'env-secret' } as Record<string, string | undefined>, {
      get(target, name: string) {
        read.push(name)
        if (name !== 'AUTH_KEYCLOAK_SECRET') throw new Error(`NotCapable: Requires env access to "${name}"`)
        return target[name]
      },
    })
    const resolved = withRequiredFields(Keycloak({ clientId: 'given-id', issuer: 'https://given.example/realms/b' }), env)
    expect(resolved).toMatchObject({ clientId: 'given-id', clientSecret: 'env-secret' })
    expect(read).toEqual(['AUTH_KEYCLOAK_SECRET'])
  })
})
