/**
 * "This suite needs service X": the variable's value when it is set. When it is not, under CI
 * (`CI=true`) the file fails, since a run that silently skips its PostgreSQL or Redis suites is no
 * proof; locally a loud banner says what did NOT run, and the suite stands as one skipped test
 * named after the gap (vitest refuses a file without tests), never as a test that passes.
 */
import { test } from 'vitest'

export function needsService(variable: string, what: string, example: string, run: string): string | undefined {
  const value = process.env[variable]
  if (value) return value
  const fix = `${variable}=${example} npx vitest run ${run}`
  if (process.env.CI === 'true') throw new Error(`${variable} is not set, and under CI=true the ${what} must run. Set it, e.g. ${fix}`)
  console.warn(['', '#'.repeat(78), `#  ${variable} is not set: the ${what} did NOT run.`, '#  To run it:', `#    ${fix}`, '#'.repeat(78), ''].join('\n'))
  test.skip(`${what} did NOT run: ${variable} is not set`, () => {})
  return undefined
}
