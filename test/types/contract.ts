/**
 * The type test: `tsc --noEmit` compiles this file as part of `npm test`. Each `@ts-expect-error`
 * must meet an error, so a shape that loosens fails the build as surely as one that breaks.
 */
import type {
  AccountCallback,
  Adapter,
  AdapterAccount,
  AdapterAccountType,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  AppProvider,
  AppProviders,
  AuthConfig,
  AuthorizationEndpointHandler,
  BuiltInProviderType,
  CommonProviderOptions,
  CredentialsConfig,
  EmailConfig,
  OAuth2Config,
  OAuthChecks,
  OAuthConfig,
  OAuthEndpointType,
  OAuthProviderButtonStyles,
  OAuthProviderType,
  OAuthUserConfig,
  OIDCConfig,
  OIDCUserConfig,
  Profile,
  ProfileCallback,
  Provider,
  ProviderType,
  RedirectableProviderType,
  SessionOptions,
  TokenEndpointHandler,
  TokenSet,
  User,
  UserinfoEndpointHandler,
  VerificationToken,
  WebAuthnConfig,
  WebAuthnProviderType,
} from '../../src/core/types.js'
import { isDate } from '../../src/core/types.js'
import { emailProviderIds, oauthProviderIds } from '../../src/core/provider-ids.js'

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const assert = <T extends true>() => {}

// 2.1 enumerations
assert<Equals<ProviderType, 'oidc' | 'oauth' | 'email' | 'credentials' | WebAuthnProviderType>>()
assert<Equals<RedirectableProviderType, 'email' | 'credentials'>>()
assert<Equals<BuiltInProviderType, RedirectableProviderType | OAuthProviderType | WebAuthnProviderType>>()
assert<Equals<OAuthEndpointType, 'authorization' | 'token' | 'userinfo'>>()
assert<Equals<AdapterAccountType, 'oauth' | 'oidc' | 'email' | 'webauthn'>>()
// @ts-expect-error credentials is not an account type
const notAccount: AdapterAccountType = 'credentials'

// every built-in id is accepted where a provider id is expected
const everyId: BuiltInProviderType[] = [...oauthProviderIds, ...emailProviderIds, 'email', 'credentials', 'webauthn', 'passkey']
const github: OAuthProviderType = 'github'
const microsoft: OAuthProviderType = 'microsoft-entra-id'
// @ts-expect-error not a built-in id
const unknown: OAuthProviderType = 'myspace'

// 2.2 and AppProvider
const common: CommonProviderOptions = { id: 'x', name: 'X', type: 'oauth' }
const app: AppProvider = { ...common, signinUrl: '/auth/signin/x', callbackUrl: '/auth/callback/x' }
// @ts-expect-error AppProvider needs signinUrl and callbackUrl
const appMissing: AppProvider = { ...common }

// 2.3 OAuth 2
const style: OAuthProviderButtonStyles = { brandColor: '#000', logo: '/x.svg', bg: '#fff', text: '#000' }
const oauth2: OAuth2Config<{ login: string }> = {
  id: 'x',
  name: 'X',
  type: 'oauth',
  jwks_endpoint: undefined,
  authorization: { url: 'https://x/authorize', params: { scope: 'read' } },
  token: 'https://x/token',
  userinfo: { url: 'https://x/me', request: async ({ tokens }) => ({ login: String(tokens.access_token) }) },
  checks: ['pkce', 'state'],
  client: { token_endpoint_auth_method: 'client_secret_post' },
  profile: (p) => ({ id: p.login }),
  account: (t) => ({ access_token: t.access_token }),
  allowDangerousEmailAccountLinking: false,
  redirectProxyUrl: 'https://proxy/auth',
  style,
}
// @ts-expect-error jwks_endpoint is required by the contract
const noJwks: OAuth2Config<Profile> = { id: 'x', name: 'X', type: 'oauth' }
const signed: OAuth2Config<Profile> = {
  id: 'k',
  name: 'K',
  type: 'oauth',
  jwks_endpoint: undefined,
  client: { token_endpoint_auth_method: 'private_key_jwt' },
  token: { url: 'https://k/token', clientPrivateKey: { kty: 'EC', crv: 'P-256', d: 'x', x: 'x', y: 'y', kid: 'k1' } },
}
// @ts-expect-error a public JWK (no "d") is not a client private key
const publicOnly: OAuth2Config<Profile> = { id: 'k', name: 'K', type: 'oauth', jwks_endpoint: undefined, token: { clientPrivateKey: { kty: 'RSA', n: 'n', e: 'AQAB' } } }
// @ts-expect-error nonce is not an OAuth 2 check
const badCheck: OAuth2Config<Profile> = { id: 'x', name: 'X', type: 'oauth', jwks_endpoint: undefined, checks: ['nonce'] }

// 2.4 OIDC
const oidc: OIDCConfig<Profile> = { id: 'o', name: 'O', type: 'oidc', jwks_endpoint: undefined, wellKnown: 'https://o/.well-known/openid-configuration', checks: ['nonce', 'pkce', 'state', 'none'], idToken: false }
const either: OAuthConfig<Profile>[] = [oauth2 as OAuthConfig<any>, oidc]
const userConfig: OAuthUserConfig<Profile> = { clientId: 'id', clientSecret: 's' }
const oidcUser: OIDCUserConfig<Profile> = { issuer: 'https://o', idToken: true }
// @ts-expect-error the user config has no type
const typed: OAuthUserConfig<Profile> = { type: 'oauth' }
const checks: OAuthChecks[] = [{ state: 's', code_verifier: 'v' }, { nonce: 'n', max_age: 3 }]

// 2.5 callbacks and handlers
const accountCb: AccountCallback = () => undefined
const profileCb: ProfileCallback<{ sub: string }> = async (p, tokens: TokenSet) => ({ id: p.sub, email: String(tokens.id_token) })
const authz: AuthorizationEndpointHandler = { url: 'https://x', params: { prompt: 'login' } }
const tokenHandler: TokenEndpointHandler = { request: async ({ params }) => ({ tokens: { access_token: params.code } }) }
const userinfo: UserinfoEndpointHandler = { request: async ({ tokens }) => ({ sub: tokens.access_token }) }

// Provider and AppProviders: objects or functions returning them
const fn = (): OIDCConfig<Profile> => oidc
const email: EmailConfig = { id: 'email', name: 'Email', type: 'email', sendVerificationRequest: () => {} }
const creds: CredentialsConfig = { id: 'c', name: 'C', type: 'credentials', credentials: {}, authorize: () => null }
const webauthn: WebAuthnConfig = { id: 'passkey', name: 'Passkey', type: 'webauthn' }
const providers: Provider[] = [oidc, fn, email, creds, webauthn]
const appProviders: AppProviders = [fn(), email]

// 2.6 records
const user: AdapterUser = { id: 'u', email: 'a@b.c', emailVerified: null }
// @ts-expect-error emailVerified is required (null or a Date)
const userMissing: AdapterUser = { id: 'u', email: 'a@b.c' }
const account: AdapterAccount = { userId: 'u', type: 'oidc', provider: 'x', providerAccountId: '1', token_type: 'bearer', expires_at: 1 }
// @ts-expect-error token_type is lower-case
const upper: AdapterAccount = { userId: 'u', type: 'oauth', provider: 'x', providerAccountId: '1', token_type: 'Bearer' as 'Bearer' }
const session: AdapterSession = { sessionToken: 't', userId: 'u', expires: new Date() }
const token: VerificationToken = { identifier: 'a@b.c', token: 'h', expires: new Date() }
const authenticator: AdapterAuthenticator = { credentialID: 'c', credentialPublicKey: 'k', userId: 'u', providerAccountId: 'c', counter: 0, credentialDeviceType: 'singleDevice', credentialBackedUp: false, transports: null }

// 4 the adapter: every method optional
const empty: Adapter = {}
const some: Adapter = { getUser: async () => null, useVerificationToken: () => null }
// @ts-expect-error getUser takes a string id
const wrong: Adapter = { getUser: (id: number) => null }

// configuration
const sessionOptions: SessionOptions = { strategy: 'database', maxAge: 60, updateAge: 10 }
const config: AuthConfig = { providers, secret: ['a', 'b'], session: { maxAge: 60 }, adapter: some }
const u: User = { id: 'x', name: null }
const date: boolean = isDate('2026-01-01T00:00:00.000Z')

export const used = [notAccount, everyId, github, microsoft, unknown, app, appMissing, noJwks, badCheck, signed, publicOnly, either, userConfig, oidcUser, typed, checks, accountCb, profileCb, authz, tokenHandler, userinfo, appProviders, user, userMissing, account, upper, session, token, authenticator, empty, wrong, sessionOptions, config, u, date]
