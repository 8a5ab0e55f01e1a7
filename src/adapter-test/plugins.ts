/** The given plugins' own cases (`LatchkeyPlugin.schema.tests`), against the adapter made with them. */
import { describe, expect, test } from 'vitest'
import type { SchemaPlugin } from '../adapters/plugin-schema.js'
import type { Suite } from './fixtures.js'

export function pluginTests(suite: Suite, plugins: readonly SchemaPlugin[]): void {
  for (const { id, schema } of plugins) {
    if (!schema) continue
    describe(`plugin ${id}`, () => {
      test('its schema methods are joined to the adapter', () => {
        // The names only: a fresh memory store costs nothing and is dropped.
        const names = Object.keys(schema.memory())
        expect(names.filter((name) => typeof (suite.adapter as unknown as Record<string, unknown>)[name] !== 'function')).toEqual([])
      })
      for (const [title, run] of Object.entries(schema.tests ?? {})) {
        test(title, () => run(suite.adapter as never))
      }
    })
  }
}
