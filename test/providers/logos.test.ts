/**
 * The built-in providers' logos (issue 44, item 1): the most used providers ship a small mark of
 * our own drawing in `style.logo`, as a base64 `data:image/svg+xml` URL under 1.5 KB, beside a hex
 * `brandColor`. Each is a plain SVG drawing: no script, no event handler, no link to anything
 * outside it, so it is safe in any page and needs no request. The app's `style` wins key by key.
 */
import { describe, expect, it } from 'vitest'
import type { OAuthConfig } from '../../src/core/types.js'
import { oauthProviderIds } from '../../src/core/provider-ids.js'
import { resolveTheme } from '../../src/server/kernel/theme.js'
import { oauthProviders } from './all.js'
import { samples } from './samples.js'

type Id = (typeof oauthProviderIds)[number]

const build = (id: Id, extra: Record<string, unknown> = {}) =>
  (oauthProviders[id] as (options: any) => OAuthConfig<any>)({ clientId: 'client-id', clientSecret: 'client-secret', ...samples[id]?.options, ...extra })

/** The providers a product team reaches for first: each ships its logo. */
const mostUsed: Id[] = [
  'google', 'github', 'apple', 'microsoft-entra-id', 'gitlab', 'discord', 'facebook', 'twitter', 'linkedin', 'slack',
  'okta', 'auth0', 'keycloak', 'spotify', 'twitch', 'bitbucket', 'reddit', 'zoom', 'notion', 'figma',
]

const withLogo = oauthProviderIds.filter((id) => build(id).style?.logo !== undefined)
const maxLogo = 1536

describe("the built-in providers' logos", () => {
  it('the most used providers each ship one', () => {
    expect(mostUsed.filter((id) => !withLogo.includes(id))).toEqual([])
  })

  describe.each(withLogo)('%s', (id) => {
    const { brandColor, logo } = build(id).style!

    it(`is a base64 data:image/svg+xml URL under ${maxLogo} characters, with a hex brandColor`, () => {
      expect(brandColor).toMatch(/^#[0-9a-f]{6}$/)
      expect(logo).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+={0,2}$/)
      expect(logo!.length).toBeLessThanOrEqual(maxLogo)
      // The theme's own check takes it: it is a logo latchkey would take from an app.
      expect(() => resolveTheme({ logo })).not.toThrow()
    })

    it('is a drawing on the 24 by 24 grid and nothing else: no script, handler, link or outside reference', () => {
      const svg = atob(logo!.slice(logo!.indexOf(',') + 1))
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24">.*<\/svg>$/s)
      const elements = [...svg.matchAll(/<([a-zA-Z]+)/g)].map((m) => m[1]!)
      expect(elements.filter((name) => !['svg', 'g', 'path', 'circle', 'ellipse', 'rect'].includes(name))).toEqual([])
      expect(svg).not.toMatch(/\son[a-z]+=|href|url\(|<script|javascript:|<!|<\?|&/i)
      // Every attribute is a plain drawing attribute.
      const attributes = new Set([...svg.matchAll(/\s([a-z-]+)="/g)].map((m) => m[1]!))
      const drawing = ['xmlns', 'viewBox', 'd', 'fill', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'width', 'height']
      expect([...attributes].filter((name) => !drawing.includes(name))).toEqual([])
    })
  })

  it("the app's style wins key by key: its own logo, or none at all", () => {
    expect(build('github', { style: { logo: '/github.svg' } }).style).toEqual({ brandColor: '#24292f', logo: '/github.svg' })
    expect(build('github', { style: { brandColor: '#000000' } }).style?.logo).toBe(build('github').style!.logo)
    expect(build('github', { style: { logo: undefined } }).style?.logo).toBeUndefined()
  })
})
