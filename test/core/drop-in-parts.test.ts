/**
 * The drop-in script loads the account settings elements from its settings part
 * (scripts/drop-in-parts.ts). An element `defineElements` loads lazily but missing from that list
 * is bundled into the drop-in up front instead, with everything it shares: a connected-apps
 * element left off it once grew the script by 5.4 KB min+gzip, and no browser test saw it (the
 * code was there, just not fetched).
 */
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { laterParts } from '../../scripts/drop-in-parts.js'

test('every element defineElements loads lazily is in one of the drop-in parts loaded beside it', () => {
  const source = readFileSync(new URL('../../src/components/define-elements.ts', import.meta.url), 'utf8')
  const lazy = [...source.matchAll(/import\('\.\/([\w-]+)\.js'\)/g)].map((m) => `src/components/${m[1]}.ts`)
  expect(lazy.length).toBeGreaterThan(5)
  const inParts = new Set(Object.values(laterParts).flat())
  expect(lazy.filter((file) => !inParts.has(file))).toEqual([])
})
