import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emailProviderIds, oauthProviderIds } from '../../src/core/provider-ids.js'

const providersDir = fileURLToPath(new URL('../../src/providers/', import.meta.url))
/** The generic modules the lead writes next to the built-in ones. */
const generic = new Set(['oauth', 'oidc', 'email', 'credentials', 'webauthn', 'passkey', 'index'])

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

  // shared/providers.md lives beside the repository in the workspace; check it when it is there.
  const spec = fileURLToPath(new URL('../../../shared/providers.md', import.meta.url))
  it.skipIf(!existsSync(spec))('matches shared/providers.md', () => {
    const text = readFileSync(spec, 'utf8')
    const section = (title: string) => text.split(`## ${title}`)[1]!.split('\n## ')[0]!
    const listed = (s: string) => s.replace(/\([^)]*\)/g, '').split(/[\s,]+/).filter((w) => /^[a-z0-9-]+$/.test(w) && w !== 'email')
    expect(listed(section('OAuth 2 / OpenID Connect (93)')).sort()).toEqual([...oauthProviderIds].sort())
    expect(listed(section('Email (8)')).filter((w) => (emailProviderIds as readonly string[]).includes(w)).sort()).toEqual([...emailProviderIds].sort())
  })
})
