import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emailProviderIds, oauthProviderIds } from '../../src/core/provider-ids.js'

const providersDir = fileURLToPath(new URL('../../src/providers/', import.meta.url))
/** The generic modules the lead writes next to the built-in ones. */
const generic = new Set(['oauth', 'oidc', 'email', 'credentials', 'password', 'webauthn', 'passkey', 'index'])

describe('provider modules', () => {
  const modules = readdirSync(providersDir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))

  it('has one module per built-in id', () => {
    for (const id of [...oauthProviderIds, ...emailProviderIds]) expect(modules, id).toContain(id)
  })

  it('has no module that is neither a built-in id nor a generic provider', () => {
    const known = new Set<string>([...oauthProviderIds, ...emailProviderIds, ...generic])
    expect(modules.filter((m) => !known.has(m))).toEqual([])
  })

  it('lists 93 OAuth/OIDC ids and 7 email ids, with no duplicates', () => {
    expect(oauthProviderIds).toHaveLength(93)
    expect(emailProviderIds).toHaveLength(7)
    expect(new Set([...oauthProviderIds, ...emailProviderIds]).size).toBe(100)
  })

  it('uses in each module the id of its file name and a default export', () => {
    for (const id of [...oauthProviderIds, ...emailProviderIds]) {
      const source = readFileSync(`${providersDir}${id}.ts`, 'utf8')
      expect(source, id).toContain(`id: '${id}'`)
      expect(source, id).toMatch(/\n\/\*\*[^\n]*\*\/\nexport default function |\n \*\/\nexport default function /)
    }
  })

  // docs/providers.md, in the repository, is the list a reader sees: it names exactly the ids the
  // OAuthProviderType union is made of, in its two tables.
  it('matches the tables of docs/providers.md', () => {
    const text = readFileSync(fileURLToPath(new URL('../../docs/providers.md', import.meta.url)), 'utf8')
    const section = (title: string) => text.split(`\n## ${title}`)[1]!.split('\n## ')[0]!
    const listed = (s: string) => [...s.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!)
    expect(listed(section('OAuth 2 and OpenID Connect')).sort()).toEqual([...oauthProviderIds].sort())
    expect(listed(section('Email')).sort()).toEqual([...emailProviderIds].sort())
  })
})
