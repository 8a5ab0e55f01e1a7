import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, takes } from './lib/index.js'

/** Claims of Battle.net's ID token / `/oauth/userinfo`: the account id and BattleTag only. */
export interface BattleNetProfile extends StandardClaims {
  sub: string
  battle_tag: string
  id?: number
}

/** The Battle.net issuers: global, and China. */
export type BattleNetIssuer = 'https://oauth.battle.net' | 'https://oauth.battlenet.com.cn' | (string & {})

/** Battle.net (Blizzard). Needs `clientId`, `clientSecret`; `issuer` for China (`https://oauth.battlenet.com.cn`). */
export default function BattleNet(options: OIDCUserConfig<BattleNetProfile> & { issuer?: BattleNetIssuer } = {}): OIDCConfig<BattleNetProfile> {
  const issuer = options.issuer ?? 'https://oauth.battle.net'
  const provider = mergeProvider<OIDCConfig<BattleNetProfile>>(
    {
      id: 'battlenet',
      name: 'Battle.net',
      type: 'oidc',
      issuer,
      wellKnown: discovery(issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid' } },
      profile: (p) => ({ id: p.sub, name: p.battle_tag, email: null, image: null }),
      style: { brandColor: '#148eff' },
    },
    options,
  )
  return readsEnv(provider, BattleNet, takes('issuer'))
}
