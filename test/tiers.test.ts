/**
 * Every test file runs in exactly one tier (test/support/tiers.ts), and what its source starts
 * agrees with that tier: `npm run test:unit` must stay free of browsers, servers and databases.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { root, staleEntries, testFiles, tierOf, type Tier } from './support/tiers.js'

/** What a test file's source shows it starts, and the tiers that may start it. */
const starts: { what: string; shows: RegExp; allowed: Tier[] }[] = [
  { what: 'a package install or another runtime', shows: /\binstallPacked\b|\binstallFromGit\b|\/runtimes(\.js)?['/]/, allowed: ['slow'] },
  { what: 'a browser', shows: /\blaunchBrowser\b|\bbrowserAndServer\b|\blaunchEngine\b|['"]playwright-core['"]|['"]puppeteer-core['"]|support\/engines\//, allowed: ['browser', 'slow'] },
  {
    what: 'a server, a process or a database',
    shows: /\bstart(AppServer|Demo|RangeServer|SmtpSink|Idp)\b|\bcreateServer\b|\.listen\(|['"]node:child_process['"]|@electric-sql\/pglite|\bpgliteAdapter\b|\bneedsService\(|['"]ioredis['"]|['"]pg['"]|['"]postgres['"]/,
    allowed: ['http', 'browser', 'slow'],
  },
]

const files = testFiles().filter((file) => file !== 'test/tiers.test.ts')

/**
 * A test file's source and that of the test/ and demo/ helpers it imports, through their own
 * imports (src/ is the product: what it can start, the tests decide).
 */
function sources(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return []
  seen.add(file)
  const text = readFileSync(join(root, file), 'utf8')
  const helpers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
    .map(([, spec]) => relative(root, join(root, dirname(file), spec.replace(/\.js$/, '.ts'))))
    .filter((helper) => /^(test|demo)\//.test(helper) && existsSync(join(root, helper)))
  return [text, ...helpers.flatMap((helper) => sources(helper, seen))]
}

test('every test file has a tier', () => {
  expect(files.filter((file) => !tierOf(file))).toEqual([])
  expect(staleEntries()).toEqual([])
})

test('no file starts what its tier does not allow', () => {
  const wrong = files.flatMap((file) => {
    const source = sources(file).join('\n')
    const tier = tierOf(file)!
    return starts.filter(({ shows, allowed }) => shows.test(source) && !allowed.includes(tier)).map(({ what }) => `${file} (${tier}) starts ${what}`)
  })
  expect(wrong).toEqual([])
})

/** Files that start their database through the product's code, where the guard does not look. */
const throughTheProduct = ['test/adapters/cli.test.ts'] // PGlite on disk, by bin/latchkey.ts migrate

test('a file in the http or browser tier starts what puts it there', () => {
  const [, browser, server] = starts
  const needs: Partial<Record<Tier, RegExp>> = { http: server.shows, browser: browser.shows }
  const idle = files.filter((file) => {
    if (throughTheProduct.includes(file)) return false
    const shows = needs[tierOf(file)!]
    return shows && !shows.test(sources(file).join('\n'))
  })
  expect(idle).toEqual([])
})

test('the guard sees what it looks for', () => {
  const [packages, browser, server] = starts
  expect(packages.shows.test(`const app = await installPacked()`)).toBe(true)
  expect(browser.shows.test(`import { chromium } from 'playwright-core'`)).toBe(true)
  expect(server.shows.test(`const db = new PGlite()`)).toBe(false)
  expect(server.shows.test(`import { PGlite } from '@electric-sql/pglite'`)).toBe(true)
  expect(server.shows.test(`const s = await startIdp()`)).toBe(true)
  expect(server.shows.test(`testServer({ providers })`)).toBe(false)
})
