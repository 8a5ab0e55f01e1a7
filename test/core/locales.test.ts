/**
 * The catalogues: every shipped language has exactly English's keys (for the elements, for the
 * account settings elements, for `<latchkey-sso-setup>` and for the server's pages), each plural has the forms its language's plural rules ask for, and every
 * fill-in English has. Then the choice of a language and the filling in of a message.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fill, isRtl, negotiate } from '../../src/core/locale.js'
import { forHowLong } from '../../src/core/for-how-long.js'
import { languages, type Plural } from '../../src/locales/index.js'

const folder = join(import.meta.dirname, '../../src/locales')
type Catalogue = Record<string, string | Plural>
const load = async (tag: string, part: string): Promise<Catalogue> => (await import(`../../src/locales/${tag}/${part}.ts`)).default
const fillIns = (message: string | Plural) => new Set(Object.values(typeof message === 'string' ? { other: message } : message).flatMap((text) => [...text!.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))

describe('the catalogues', () => {
  it('ships a folder for each language it names, and names each folder it has', () => {
    const folders = readdirSync(folder, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)
    expect(folders.sort()).toEqual([...languages].sort())
  })

  for (const part of ['elements', 'profile', 'sso', 'pages']) {
    describe(part, () => {
      it.each(languages.filter((l) => l !== 'en'))('%s has every key of English and no other', async (tag) => {
        const [en, other] = [await load('en', part), await load(tag, part)]
        const missing = Object.keys(en).filter((k) => !(k in other))
        const extra = Object.keys(other).filter((k) => !(k in en))
        expect({ missing, extra }).toEqual({ missing: [], extra: [] })
      })

      it.each([...languages])('%s: each message has the fill-ins of English, each plural the forms of its language', async (tag) => {
        const [en, other] = [await load('en', part), await load(tag, part)]
        const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories
        const wrong: string[] = []
        for (const [key, message] of Object.entries(other)) {
          if (!(key in en)) continue
          if (typeof message !== typeof en[key]) wrong.push(`${key}: ${typeof en[key] === 'string' ? 'a string' : 'a plural'} in English`)
          if (typeof message === 'object') {
            const forms = Object.keys(message).sort()
            if (forms.join() !== [...categories].sort().join()) wrong.push(`${key}: forms ${forms} where ${tag} has ${categories}`)
          }
          const [want, have] = [fillIns(en[key]), fillIns(message)]
          for (const name of want) if (!have.has(name)) wrong.push(`${key}: no {${name}}`)
          for (const name of have) if (!want.has(name)) wrong.push(`${key}: {${name}} is not English's`)
          for (const text of Object.values(typeof message === 'string' ? { other: message } : message)) if (!text?.trim()) wrong.push(`${key}: empty`)
        }
        expect(wrong).toEqual([])
      })
    })
  }
})

describe('negotiate', () => {
  it.each([
    [['fr-CA', 'en'], 'fr'],
    [['de-CH'], 'de'],
    [['pt'], 'pt-BR'],
    [['pt-PT'], 'pt-BR'],
    [['zh-CN'], 'zh-Hans'],
    [['zh'], 'zh-Hans'],
    [['zh-SG'], 'zh-Hans'],
    [['zh-TW', 'ja'], 'ja'],
    [['zh-Hant'], undefined],
    [['sv', 'nb'], undefined],
    [['EN-us'], 'en'],
    [['not a tag', 'he'], 'he'],
    [[], undefined],
  ])('%j -> %s', (wanted, expected) => {
    expect(negotiate(wanted as string[], languages)).toBe(expected)
  })

  it('takes an exact tag first, whatever its place in the list offered', () => {
    expect(negotiate(['pt-PT'], ['pt-BR', 'pt-PT'])).toBe('pt-PT')
  })
})

describe('fill', () => {
  const codes: Plural = { zero: 'zero {count}', one: 'one {count}', two: 'two {count}', few: 'few {count}', many: 'many {count}', other: 'other {count}' }
  it.each([
    ['en', 1, 'one 1'],
    ['en', 0, 'other 0'],
    ['ar', 0, 'zero 0'],
    ['ar', 2, 'two 2'],
    ['ar', 3, 'few 3'],
    ['ar', 11, 'many 11'],
    ['ja', 1, 'other 1'],
    ['fr', 0, 'one 0'],
  ])('picks the plural of %s for %i', (lang, count, expected) => {
    expect(fill(lang, codes, { count })).toBe(expected)
  })

  it('fills in names, and leaves a name it has no value for as it stands', () => {
    expect(fill('en', 'Sign in with {name} as {email}', { name: 'GitHub' })).toBe('Sign in with GitHub as {email}')
  })

  it('takes `other` where a language has a form the message lacks', () => {
    expect(fill('ar', { one: 'one', other: 'other {count}' }, { count: 3 })).toBe('other 3')
  })
})

describe('forHowLong', () => {
  it.each([
    [30 * 86400, 'en', '30 days'],
    [86400, 'en', '1 day'],
    [6 * 3600, 'en', '6 hours'],
    [11 * 3600, 'en', '11 hours'],
    [30 * 86400, 'fr', '30 jours'],
    [86400, 'de', '1 Tag'],
  ])('%i s in %s: %s', (seconds, lang, expected) => {
    // French puts a no-break space between number and unit.
    expect(forHowLong(seconds, lang).replace(/\s/g, ' ')).toBe(expected)
  })
})

describe('isRtl', () => {
  it.each([['ar', true], ['he', true], ['ar-EG', true], ['fa', true], ['en', false], ['ja', false], ['arn', false]])('%s -> %s', (tag, rtl) => {
    expect(isRtl(tag)).toBe(rtl)
  })
})
