/**
 * Second factors (latchkey's optional addition): authenticator-app factors with a TOTP step taken
 * by compare-and-set, and recovery codes replaced as a set and each used once, even under
 * concurrency. Adapters without the eight methods pass these unchecked (the server then refuses
 * to turn second factors on, naming them).
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { factor, unique, type Suite } from './fixtures.js'

// An adapter has all of them or the suite skips these tests.
export { factorMethods } from '../adapters/factors.js'
import { factorMethods } from '../adapters/factors.js'

/** A TOTP step past 2^31, as a code from 2038 on has: a 32-bit column would not hold it. */
const FAR_STEP = 3_000_000_000

export function factorTests(suite: Suite): void {
  describe('second factors', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite
    const keeps = () => factorMethods.every((method) => typeof adapter[method] === 'function')
    const codes = (n: number) => Array.from({ length: n }, () => `hash-${unique()}`)

    test('createFactor returns the factor and listFactorsByUserId reads it back, Dates revived, oldest first, the user’s only', async () => {
      if (!keeps()) return
      const owner = await user()
      const other = await user()
      const newer = factor(owner.id, { label: 'Phone', confirmedAt: new Date(Date.now() - 500), lastUsedStep: FAR_STEP })
      const older = factor(owner.id, { createdAt: new Date(newer.createdAt.getTime() - 60_000) })
      expect(await adapter.createFactor(newer)).toEqual(newer)
      expect(await adapter.createFactor(older)).toEqual(older)
      await adapter.createFactor(factor(other.id))
      const listed = await adapter.listFactorsByUserId(owner.id)
      expect(listed).toEqual([older, newer])
      expect(listed[1]!.createdAt).toBeInstanceOf(Date)
      expect(listed[1]!.confirmedAt).toBeInstanceOf(Date)
    })

    test('listFactorsByUserId returns [] for an unknown user and for a user without any', async () => {
      if (!keeps()) return
      expect(await adapter.listFactorsByUserId(randomUUID())).toEqual([])
      expect(await adapter.listFactorsByUserId((await user()).id)).toEqual([])
    })

    test('a returned factor is a copy: changing it changes nothing stored', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id)
      const created = await adapter.createFactor(input)
      created.createdAt.setTime(0)
      created.label = 'changed'
      input.secret = 'changed'
      expect((await adapter.listFactorsByUserId(owner.id))[0]).toMatchObject({ label: null, secret: expect.stringMatching(/^sealed-/) })
      expect((await adapter.listFactorsByUserId(owner.id))[0]!.createdAt.getTime()).not.toBe(0)
    })

    test('createFactor refuses an id in use (DuplicateFactor) and an unknown user (UnknownUser), storing nothing', async () => {
      if (!keeps()) return
      const owner = await user()
      const first = factor(owner.id, { label: 'first' })
      await adapter.createFactor(first)
      await expect(adapter.createFactor({ ...first, label: 'second' })).rejects.toMatchObject({ code: 'DuplicateFactor' })
      expect(await adapter.listFactorsByUserId(owner.id)).toEqual([first])
      const stranger = randomUUID()
      await expect(adapter.createFactor(factor(stranger))).rejects.toMatchObject({ code: 'UnknownUser' })
      expect(await adapter.listFactorsByUserId(stranger)).toEqual([])
    })

    test('confirmFactor sets confirmedAt and returns the factor; an unknown id gives null', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id)
      await adapter.createFactor(input)
      const at = new Date(Date.now() + 123)
      const confirmed = await adapter.confirmFactor(input.id, at)
      expect(confirmed).toEqual({ ...input, confirmedAt: at })
      expect(await adapter.listFactorsByUserId(owner.id)).toEqual([{ ...input, confirmedAt: at }])
      expect(await adapter.confirmFactor(`factor-${unique()}`, at)).toBeNull()
    })

    test('deleteFactor returns the factor once, then null; the user’s other factors stay', async () => {
      if (!keeps()) return
      const owner = await user()
      const gone = factor(owner.id)
      const kept = factor(owner.id, { createdAt: new Date(gone.createdAt.getTime() + 1000) })
      await adapter.createFactor(gone)
      await adapter.createFactor(kept)
      expect(await adapter.deleteFactor(gone.id)).toEqual(gone)
      expect(await adapter.deleteFactor(gone.id)).toBeNull()
      expect(await adapter.listFactorsByUserId(owner.id)).toEqual([kept])
    })

    test('useFactorStep takes a step only above the last one: same or lower is refused, higher is taken', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id)
      await adapter.createFactor(input)
      expect(await adapter.useFactorStep(input.id, FAR_STEP)).toBe(true)
      expect(await adapter.useFactorStep(input.id, FAR_STEP)).toBe(false)
      expect(await adapter.useFactorStep(input.id, FAR_STEP - 1)).toBe(false)
      expect((await adapter.listFactorsByUserId(owner.id))[0]!.lastUsedStep).toBe(FAR_STEP)
      expect(await adapter.useFactorStep(input.id, FAR_STEP + 1)).toBe(true)
      expect((await adapter.listFactorsByUserId(owner.id))[0]!.lastUsedStep).toBe(FAR_STEP + 1)
      expect(await adapter.useFactorStep(`factor-${unique()}`, 1)).toBe(false)
    })

    test('useFactorStep compares with a stored lastUsedStep given at creation', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id, { lastUsedStep: 100 })
      await adapter.createFactor(input)
      expect(await adapter.useFactorStep(input.id, 100)).toBe(false)
      expect(await adapter.useFactorStep(input.id, 101)).toBe(true)
    })

    test('30 parallel useFactorStep calls with one step: exactly one is taken', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id, { lastUsedStep: 10 })
      await adapter.createFactor(input)
      const results = await Promise.all(Array.from({ length: 30 }, () => adapter.useFactorStep(input.id, 11)))
      expect(results.filter(Boolean)).toHaveLength(1)
      expect((await adapter.listFactorsByUserId(owner.id))[0]!.lastUsedStep).toBe(11)
    })

    test('recovery codes: replaced as a set, each used once, counted, kept apart per user', async () => {
      if (!keeps()) return
      const owner = await user()
      const other = await user()
      const first = codes(3)
      await adapter.replaceRecoveryCodes(owner.id, first)
      await adapter.replaceRecoveryCodes(other.id, codes(2))
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(3)
      expect(await adapter.useRecoveryCode(owner.id, first[1]!)).toBe(true)
      expect(await adapter.useRecoveryCode(owner.id, first[1]!)).toBe(false)
      expect(await adapter.useRecoveryCode(other.id, first[0]!)).toBe(false)
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(2)

      const second = codes(4)
      await adapter.replaceRecoveryCodes(owner.id, second)
      expect(await adapter.useRecoveryCode(owner.id, first[0]!)).toBe(false)
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(4)
      expect(await adapter.useRecoveryCode(owner.id, second[3]!)).toBe(true)
      expect(await adapter.countRecoveryCodes(other.id)).toBe(2)

      await adapter.replaceRecoveryCodes(owner.id, [])
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(0)
      expect(await adapter.useRecoveryCode(owner.id, second[0]!)).toBe(false)
    })

    test('recovery codes of an unknown user: none counted, none used; storing some throws UnknownUser', async () => {
      if (!keeps()) return
      const stranger = randomUUID()
      expect(await adapter.countRecoveryCodes(stranger)).toBe(0)
      expect(await adapter.useRecoveryCode(stranger, `hash-${unique()}`)).toBe(false)
      await expect(adapter.replaceRecoveryCodes(stranger, codes(2))).rejects.toMatchObject({ code: 'UnknownUser' })
      expect(await adapter.countRecoveryCodes(stranger)).toBe(0)
    })

    test('20 parallel uses of one recovery code: exactly one wins', async () => {
      if (!keeps()) return
      const owner = await user()
      const set = codes(5)
      await adapter.replaceRecoveryCodes(owner.id, set)
      const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useRecoveryCode(owner.id, set[2]!)))
      expect(results.filter(Boolean)).toHaveLength(1)
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(4)
    })

    test('5 parallel replacements: exactly one set survives, whole', async () => {
      if (!keeps()) return
      const owner = await user()
      const sets = Array.from({ length: 5 }, () => codes(4))
      await Promise.all(sets.map((set) => adapter.replaceRecoveryCodes(owner.id, set)))
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(4)
      const usable = await Promise.all(sets.map(async (set) => (await Promise.all(set.map((code) => adapter.useRecoveryCode(owner.id, code)))).filter(Boolean).length))
      expect([...usable].sort()).toEqual([0, 0, 0, 0, 4])
    })

    test('deleteUser takes the user’s factors and recovery codes with it', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id)
      const set = codes(3)
      await adapter.createFactor(input)
      await adapter.replaceRecoveryCodes(owner.id, set)
      await adapter.deleteUser(owner.id)
      expect(await adapter.listFactorsByUserId(owner.id)).toEqual([])
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(0)
      expect(await adapter.useFactorStep(input.id, 1)).toBe(false)
      expect(await adapter.deleteFactor(input.id)).toBeNull()
      expect(await adapter.useRecoveryCode(owner.id, set[0]!)).toBe(false)
    })

    test("a trusted device is a factor of type 'device': stored, listed beside the apps, deleted alone", async () => {
      if (!keeps()) return
      const owner = await user()
      const app = factor(owner.id)
      const device = factor(owner.id, { type: 'device', confirmedAt: new Date(Math.floor(Date.now() / 1000) * 1000), label: 'Chrome on Linux' })
      await adapter.createFactor(app)
      expect(await adapter.createFactor(device)).toEqual(device)
      const listed = await adapter.listFactorsByUserId(owner.id)
      expect(listed.map((f) => [f.id, f.type]).sort()).toEqual([[app.id, 'totp'], [device.id, 'device']].sort())
      expect(listed.find((f) => f.id === device.id)).toEqual(device)
      expect(await adapter.deleteFactor(device.id)).toEqual(device)
      expect((await adapter.listFactorsByUserId(owner.id)).map((f) => f.id)).toEqual([app.id])
    })

    test('malformed input is refused with InvalidInput, naming the method and the field', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = factor(owner.id)
      await expect(adapter.createFactor({ ...input, type: 'sms' } as never)).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/createFactor: .*type/) })
      await expect(adapter.createFactor({ ...input, secret: '' })).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/createFactor: .*secret/) })
      await expect(adapter.createFactor({ ...input, createdAt: new Date('nope') })).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/createdAt/) })
      await expect(adapter.createFactor({ ...input, lastUsedStep: -1 })).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/lastUsedStep/) })
      expect(await adapter.listFactorsByUserId(owner.id)).toEqual([])
      await adapter.createFactor(input)
      await expect(adapter.confirmFactor(input.id, new Date('nope'))).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/confirmFactor: .*confirmedAt/) })
      for (const step of [-1, 1.5, '7', Number.NaN]) {
        await expect(adapter.useFactorStep(input.id, step as never)).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/useFactorStep: .*step/) })
      }
      for (const bad of ['code', [''], ['same', 'same']]) {
        await expect(adapter.replaceRecoveryCodes(owner.id, bad as never)).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/replaceRecoveryCodes: .*codes/) })
      }
      expect(await adapter.listFactorsByUserId(owner.id)).toEqual([{ ...input, confirmedAt: null, lastUsedStep: null }])
      expect(await adapter.countRecoveryCodes(owner.id)).toBe(0)
    })
  })
}
