import { describe, expect, it } from 'vitest'
import type { OAuthConfig, OIDCConfig } from '../../src/core/types.js'
import { oauthProviderIds } from '../../src/core/provider-ids.js'
import { oauthProviders } from './all.js'
import { fixedDiscovery, samples } from './samples.js'

type Id = (typeof oauthProviderIds)[number]

/** Builds a provider the way an app does: client credentials plus the sample's own options. */
function build(id: Id, extra: Record<string, unknown> = {}): OAuthConfig<any> {
  const factory = oauthProviders[id] as (options: any) => OAuthConfig<any>
  return factory({ clientId: 'client-id', clientSecret: 'client-secret', ...samples[id]?.options, ...extra })
}

function urlOf(endpoint: string | { url?: string } | undefined): string | undefined {
  return typeof endpoint === 'string' ? endpoint : endpoint?.url
}

describe('built-in OAuth / OIDC providers', () => {
  it('has a sample for every id', () => {
    expect(Object.keys(samples).sort()).toEqual([...oauthProviderIds].sort())
  })

  describe.each([...oauthProviderIds])('%s', (id) => {
    const sample = samples[id]!

    it('has its id, name, type, style and options', () => {
      const config = build(id)
      expect(config.id).toBe(id)
      expect(config.name).toBe(sample.name)
      expect(config.type).toBe(sample.type)
      expect(config.style?.brandColor).toMatch(/^#[0-9a-f]{6}$/i)
      // A logo that ships is a data: URL (test/providers/logos.test.ts): a path would be a broken image on every app.
      if (config.style?.logo !== undefined) expect(config.style.logo).toMatch(/^data:image\/svg\+xml;base64,/)
      expect('jwks_endpoint' in config).toBe(true)
      if (config.jwks_endpoint !== undefined) expect(config.jwks_endpoint).toMatch(/^https:\/\//)
      expect(config.options).toMatchObject({ clientSecret: 'client-secret' })
      expect(config.clientSecret).toBe('client-secret')
      expect(config.clientId).toBe(sample.options?.clientId ?? 'client-id')
      expect(typeof config.profile).toBe('function')
    })

    it('has endpoints (oauth) or a discovery document (oidc)', () => {
      const config = build(id)
      if (config.type === 'oidc') {
        expect(config.wellKnown).toMatch(/^https:\/\/[^/]+.*\/\.well-known\/openid-configuration(\?.*)?$/)
        expect(config.issuer).toMatch(/^https:\/\//)
      } else {
        for (const endpoint of [config.authorization, config.token, config.userinfo]) {
          expect(urlOf(endpoint)).toMatch(/^https:\/\/[^/]+/)
        }
      }
      for (const check of config.checks ?? []) expect(['none', 'state', 'pkce', 'nonce']).toContain(check)
    })

    it('maps its documented profile to { id, name, email, image }', async () => {
      const config = build(id)
      const user = await config.profile!(structuredClone(sample.profile), sample.tokens ?? { access_token: 'at' })
      expect(user).toEqual(sample.user)
      expect(typeof user.id).toBe('string')
    })

    it('lets every option override its default', async () => {
      const profile = () => ({ id: 'mine', name: 'Mine', email: 'mine@example.com', image: null })
      const config = build(id, {
        id: `${id}-custom`,
        name: 'Custom',
        authorization: { url: 'https://idp.test/authorize', params: { scope: 'custom', prompt: 'login' } },
        token: 'https://idp.test/token',
        userinfo: 'https://idp.test/userinfo',
        wellKnown: 'https://idp.test/.well-known/openid-configuration',
        issuer: 'https://idp.test',
        checks: ['none'],
        style: { logo: 'https://cdn.example/mine.svg' },
        client: { token_endpoint_auth_method: 'none' },
        allowDangerousEmailAccountLinking: true,
        profile,
      })
      expect(config.id).toBe(`${id}-custom`)
      expect(config.name).toBe('Custom')
      expect(urlOf(config.authorization)).toBe('https://idp.test/authorize')
      expect((config.authorization as { params: Record<string, unknown> }).params).toMatchObject({ scope: 'custom', prompt: 'login' })
      expect(urlOf(config.token)).toBe('https://idp.test/token')
      expect(urlOf(config.userinfo)).toBe('https://idp.test/userinfo')
      expect(config.wellKnown).toBe('https://idp.test/.well-known/openid-configuration')
      expect(config.issuer).toBe('https://idp.test')
      expect(config.checks).toEqual(['none'])
      // Style merges key by key: the logo is the user's, the brand colour stays.
      expect(config.style).toEqual({ brandColor: build(id).style!.brandColor, logo: 'https://cdn.example/mine.svg' })
      expect(config.client?.token_endpoint_auth_method).toBe('none')
      expect(config.allowDangerousEmailAccountLinking).toBe(true)
      expect(config.profile).toBe(profile)
      expect(await config.profile!({} as any, {})).toEqual(profile())
    })
  })

  it.each(Object.entries(fixedDiscovery))('%s has the documented discovery URL', (id, url) => {
    const config = (oauthProviders[id as Id] as (options: any) => OIDCConfig<any>)({ clientId: 'c', clientSecret: 's' })
    expect(config.type).toBe('oidc')
    expect(config.wellKnown).toBe(url)
    expect(`${config.issuer!.replace(/\/$/, '')}/.well-known/openid-configuration`).toBe(url)
  })

  it('builds the tenant endpoints of multi-tenant providers from their options', () => {
    const issuer = 'https://idp.example.com/realms/acme'
    const oidcTenants: Id[] = [
      'asgardeo', 'auth0', 'authentik', 'azure-ad-b2c', 'beyondidentity', 'cognito', 'duende-identity-server6', 'frontegg', 'fusionauth',
      'hydra', 'identity-server4', 'keycloak', 'kinde', 'logto', 'okta', 'onelogin', 'passage', 'ping-id', 'united-effects', 'zitadel',
    ]
    for (const id of oidcTenants) {
      const config = (oauthProviders[id] as (o: any) => OAuthConfig<any>)({ clientId: 'c', issuer })
      expect(config.issuer, id).toBe(issuer)
      expect(config.wellKnown, id).toBe(`${issuer}/.well-known/openid-configuration`)
    }
    const oauthTenants: Array<[Id, string, string, string]> = [
      ['mastodon', '/oauth/authorize', '/oauth/token', '/api/v1/accounts/verify_credentials'],
      ['mattermost', '/oauth/authorize', '/oauth/access_token', '/api/v4/users/me'],
      ['nextcloud', '/apps/oauth2/authorize', '/apps/oauth2/api/v1/token', '/ocs/v2.php/cloud/user?format=json'],
      ['osso', '/oauth/authorize', '/oauth/token', '/oauth/me'],
      ['boxyhq-saml', '/api/oauth/authorize', '/api/oauth/token', '/api/oauth/userinfo'],
    ]
    for (const [id, authorization, token, userinfo] of oauthTenants) {
      const config = (oauthProviders[id] as (o: any) => OAuthConfig<any>)({ clientId: 'c', issuer: 'https://host.example.org/' })
      expect(urlOf(config.authorization), id).toBe(`https://host.example.org${authorization}`)
      expect(urlOf(config.token), id).toBe(`https://host.example.org${token}`)
      expect(urlOf(config.userinfo), id).toBe(`https://host.example.org${userinfo}`)
    }
  })

  it('takes the documented tenant options', () => {
    const azure = oauthProviders['azure-ad']({ clientId: 'c', tenantId: 'contoso-tenant' })
    expect(azure.wellKnown).toBe('https://login.microsoftonline.com/contoso-tenant/v2.0/.well-known/openid-configuration')
    expect(azure.options).toHaveProperty('tenantId', 'contoso-tenant')
    expect(azure).not.toHaveProperty('tenantId')
    const entra = oauthProviders['microsoft-entra-id']({ issuer: 'https://login.microsoftonline.com/contoso-tenant/v2.0' })
    expect(entra.jwks_endpoint).toBe('https://login.microsoftonline.com/contoso-tenant/discovery/v2.0/keys')
    expect(oauthProviders['microsoft-entra-id']({ issuer: 'https://login.example.com/custom' }).jwks_endpoint).toBeUndefined()
    expect(oauthProviders.asgardeo({ issuer: 'https://api.asgardeo.io/t/acme/oauth2/token' }).jwks_endpoint).toBe('https://api.asgardeo.io/t/acme/oauth2/jwks')
    expect(oauthProviders.okta({ issuer: 'https://acme.okta.com' }).jwks_endpoint).toBe('https://acme.okta.com/oauth2/v1/keys')
    expect(oauthProviders.okta({ issuer: 'https://acme.okta.com/oauth2/default' }).jwks_endpoint).toBe('https://acme.okta.com/oauth2/default/v1/keys')
    const ghe = oauthProviders.github({ enterprise: { baseUrl: 'https://git.example.com/' } })
    expect(urlOf(ghe.authorization)).toBe('https://git.example.com/login/oauth/authorize')
    expect(urlOf(ghe.userinfo)).toBe('https://git.example.com/api/v3/user')
    const gitlab = oauthProviders.gitlab({ issuer: 'https://gitlab.example.com' })
    expect(urlOf(gitlab.token)).toBe('https://gitlab.example.com/oauth/token')
    const netsuite = oauthProviders.netsuite({ accountID: '1234567_SB1' })
    expect(urlOf(netsuite.authorization)).toBe('https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl')
    expect(urlOf(netsuite.token)).toBe('https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token')
    const fusion = oauthProviders.fusionauth({ issuer: 'https://auth.example.com', tenantId: 't-1' })
    expect(fusion.wellKnown).toBe('https://auth.example.com/.well-known/openid-configuration?tenantId=t-1')
    const descope = oauthProviders.descope({ clientId: 'P2abc' })
    expect(descope.wellKnown).toBe('https://api.descope.com/P2abc/.well-known/openid-configuration')
    const battlenet = oauthProviders.battlenet({ issuer: 'https://oauth.battlenet.com.cn' })
    expect(battlenet.wellKnown).toBe('https://oauth.battlenet.com.cn/.well-known/openid-configuration')
    const zoho = oauthProviders.zoho({ issuer: 'https://accounts.zoho.eu' })
    expect(urlOf(zoho.authorization)).toBe('https://accounts.zoho.eu/oauth/v2/auth')
    const wechat = oauthProviders.wechat({ clientId: 'wxappid', platformType: 'OfficialAccount' })
    expect(wechat.authorization).toEqual({
      url: 'https://open.weixin.qq.com/connect/oauth2/authorize',
      params: { appid: 'wxappid', scope: 'snsapi_userinfo' },
    })
  })

  it('keeps the quirks providers document', () => {
    const apple = oauthProviders.apple({})
    expect(apple.authorization).toMatchObject({ params: { response_mode: 'form_post', scope: 'name email' } })
    expect(apple.client?.token_endpoint_auth_method).toBe('client_secret_post')
    expect(apple.checks).not.toContain('pkce')
    expect(oauthProviders.line({}).client?.id_token_signed_response_alg).toBe('HS256')
    expect(oauthProviders.twitch({}).checks).toEqual(['state', 'nonce'])
    expect(oauthProviders.twitter({}).checks).toEqual(['pkce', 'state'])
    expect(oauthProviders.vipps({}).idToken).toBe(false)
    expect(oauthProviders.github({}).authorization).toMatchObject({ params: { scope: 'read:user user:email' } })
    expect(oauthProviders.tiktok({ clientId: 'awkey' }).authorization).toMatchObject({ params: { client_key: 'awkey' } })
    expect(oauthProviders.atlassian({}).authorization).toMatchObject({ params: { audience: 'api.atlassian.com' } })
  })
})
